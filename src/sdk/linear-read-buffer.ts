// The SDK's stdio `ReadBuffer` (1.x and 2.x) joins every chunk onto the whole pending buffer and scans it from the
// start for a newline, so one large message costs bytes² / chunk size: a 14 MB read answer (a 10 MiB blob) spent
// ~6 s copying, enough to push reads past their deadline. This buffer keeps the chunks, scans each byte once, joins a
// message once, and hands that one line to the SDK's own buffer, so parsing and validation stay the SDK's.

/** The SDK's stdio read buffer: what `StdioClientTransport` calls (1.x and 2.x alike). */
export interface SdkReadBuffer {
  append(chunk: Buffer): void;
  readMessage(): unknown;
  clear(): void;
}

const newline = 0x0a;

/** A stdio read buffer linear in the bytes it receives; messages are parsed by the SDK buffer it wraps. */
export class LinearReadBuffer implements SdkReadBuffer {
  readonly #inner: SdkReadBuffer;
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  // leading chunks already searched without finding a newline
  #scanned = 0;

  /** Wraps `inner` (the SDK's buffer); `maxBytes` caps the bytes held at once, as the SDK's `maxBufferSize` does. */
  constructor(inner: SdkReadBuffer, maxBytes: number) {
    this.#inner = inner;
    this.#maxBytes = maxBytes;
  }

  /** Keeps `chunk`; throws, as the SDK does, when the bytes held would pass the cap. */
  append(chunk: Buffer): void {
    if (this.#bytes + chunk.length > this.#maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.#maxBytes} bytes`);
    }
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
  }

  /** The next whole message, parsed by the SDK's buffer, or null when no newline has arrived yet. */
  readMessage(): unknown {
    for (let i = this.#scanned; i < this.#chunks.length; i++) {
      const chunk = this.#chunks[i] as Buffer;
      const end = chunk.indexOf(newline);
      if (end === -1) continue;
      const line = Buffer.concat([...this.#chunks.slice(0, i), chunk.subarray(0, end + 1)]);
      const rest = chunk.subarray(end + 1);
      this.#chunks = rest.length > 0 ? [rest, ...this.#chunks.slice(i + 1)] : this.#chunks.slice(i + 1);
      this.#bytes -= line.length;
      this.#scanned = 0;
      this.#inner.append(line);
      return this.#inner.readMessage();
    }
    this.#scanned = this.#chunks.length;
    return null;
  }

  /** Drops everything held. */
  clear(): void {
    this.#chunks = [];
    this.#bytes = 0;
    this.#scanned = 0;
    this.#inner.clear();
  }
}

/** Puts a `LinearReadBuffer` in place of a stdio transport's SDK read buffer, when it has one of that shape. */
export function linearizeReadBuffer(transport: unknown, maxBytes: number): void {
  const holder = transport as { _readBuffer?: Partial<SdkReadBuffer> } | null;
  const inner = holder?._readBuffer;
  if (
    inner === undefined ||
    typeof inner.append !== 'function' ||
    typeof inner.readMessage !== 'function' ||
    typeof inner.clear !== 'function'
  ) {
    return;
  }
  (holder as { _readBuffer: SdkReadBuffer })._readBuffer = new LinearReadBuffer(inner as SdkReadBuffer, maxBytes);
}
