/** A read of the SSH wire format (RFC 4251 §5) that went past the end or met a bad length: the blob is malformed. */
export class SshWireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SshWireError';
  }
}

/** Reads SSH wire fields (`uint32`, `string`, `mpint`) in order from one buffer; every read is bounds-checked. */
export class SshReader {
  #offset = 0;
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  /** bytes not read yet */
  get remaining(): number {
    return this.#bytes.length - this.#offset;
  }

  /** `count` raw bytes */
  raw(count: number, what: string): Buffer {
    if (count < 0 || count > this.remaining) throw new SshWireError(`${what} runs past the end of the data`);
    const out = Buffer.from(this.#bytes.subarray(this.#offset, this.#offset + count));
    this.#offset += count;
    return out;
  }

  /** a big-endian 32-bit unsigned number */
  uint32(what: string): number {
    return this.raw(4, what).readUInt32BE(0);
  }

  /** a length-prefixed byte string */
  string(what: string): Buffer {
    return this.raw(this.uint32(what), what);
  }

  /** a length-prefixed UTF-8 string */
  text(what: string): string {
    return this.string(what).toString('utf8');
  }

  /** a non-negative mpint, as its unsigned big-endian magnitude (leading zero bytes removed) */
  mpint(what: string): Buffer {
    const bytes = this.string(what);
    if (bytes.length > 0 && ((bytes[0] ?? 0) & 0x80) !== 0) throw new SshWireError(`${what} is negative`);
    let start = 0;
    while (start < bytes.length && bytes[start] === 0) start += 1;
    return bytes.subarray(start);
  }

  /** throws unless every byte was read */
  end(what: string): void {
    if (this.remaining !== 0) throw new SshWireError(`${what} has ${this.remaining} bytes after its last field`);
  }
}

/** Writes SSH wire fields into one buffer. */
export class SshWriter {
  readonly #parts: Buffer[] = [];

  /** raw bytes, no length */
  raw(bytes: Uint8Array | string): this {
    this.#parts.push(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes));
    return this;
  }

  /** a big-endian 32-bit unsigned number */
  uint32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(value >>> 0, 0);
    this.#parts.push(b);
    return this;
  }

  /** a length-prefixed byte string (a JS string is written as UTF-8) */
  string(bytes: Uint8Array | string): this {
    const b = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
    return this.uint32(b.length).raw(b);
  }

  /** a non-negative mpint from its unsigned big-endian magnitude */
  mpint(magnitude: Uint8Array): this {
    let start = 0;
    while (start < magnitude.length && magnitude[start] === 0) start += 1;
    const trimmed = Buffer.from(magnitude.subarray(start));
    const padded =
      trimmed.length > 0 && ((trimmed[0] ?? 0) & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
    return this.string(padded);
  }

  /** everything written so far */
  bytes(): Buffer {
    return Buffer.concat(this.#parts);
  }
}
