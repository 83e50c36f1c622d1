// The SDK's stdio `ReadBuffer` (1.x and 2.x) joins every chunk onto the whole pending buffer and scans it from the
// start for a newline, so one large message costs bytes² / chunk size: a 14 MB read answer (a 10 MiB blob) spent
// ~6 s copying, enough to push reads past their deadline. This buffer keeps the chunks, scans each byte once, joins a
// message once, and hands that one line to the SDK's own buffer, so parsing and validation stay the SDK's.
// The SDK's buffer throws on a message over its cap and the transport then closes the whole connection; this one drops
// only that line, keeping its first and last bytes to learn the request it answers, which then gets an error answer
// (`oversizeAnswer`): one oversize answer ends one request, never the connection.
import { GateError } from '../errors.ts';
import { type JsonRpcId } from '../flow/json-rpc-shape.ts';
import { peekId, peekTailId } from '../flow/peek-id.ts';
import { oversizeAnswer } from './oversize-answer.ts';

/** The SDK's stdio read buffer: what `StdioClientTransport` calls (1.x and 2.x alike). */
export interface SdkReadBuffer {
  append(chunk: Buffer): void;
  readMessage(): unknown;
  clear(): void;
}

/** Bytes kept from each end of a line over the cap, to read its JSON-RPC id. */
export const oversizeEndBytes = 64 * 1024;

const newline = 0x0a;
const lineEnd = Buffer.from('\n');

/** A line being dropped for passing the cap: its first and last bytes, and how many bytes it has had. */
interface Dropping {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

/** A stdio read buffer linear in the bytes it receives; messages are parsed by the SDK buffer it wraps. */
export class LinearReadBuffer implements SdkReadBuffer {
  readonly #inner: SdkReadBuffer;
  readonly #maxBytes: number;
  // the line still arriving (no newline yet), and its size
  #parts: Buffer[] = [];
  #bytes = 0;
  // whole lines (newline included) and the answers made for dropped lines, in arrival order
  #ready: (Buffer | Record<string, unknown>)[] = [];
  #dropping: Dropping | null = null;

  /** Wraps `inner` (the SDK's buffer, whose own cap must admit `maxBytes`); `maxBytes` caps one message, bytes. */
  constructor(inner: SdkReadBuffer, maxBytes: number) {
    this.#inner = inner;
    this.#maxBytes = maxBytes;
  }

  /** Takes `chunk`; never throws: a line over the cap is dropped as it arrives and answered by `oversizeAnswer`. */
  append(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      const end = rest.indexOf(newline);
      const piece = end === -1 ? rest : rest.subarray(0, end);
      rest = end === -1 ? rest.subarray(rest.length) : rest.subarray(end + 1);
      if (this.#dropping === null && this.#bytes + piece.length > this.#maxBytes) this.#startDropping();
      if (this.#dropping !== null) this.#drop(piece);
      else if (piece.length > 0) {
        this.#parts.push(piece);
        this.#bytes += piece.length;
      }
      if (end !== -1) this.#endLine();
    }
  }

  /** The next whole message, parsed by the SDK's buffer (or the answer standing for a dropped one); null when none. */
  readMessage(): unknown {
    for (let next = this.#ready.shift(); next !== undefined; next = this.#ready.shift()) {
      if (!Buffer.isBuffer(next)) return next;
      this.#inner.append(next);
      // 2.x skips a line that is not JSON and returns null: go on with the next line rather than stall
      const message = this.#inner.readMessage();
      if (message !== null) return message;
    }
    return null;
  }

  /** Drops everything held. */
  clear(): void {
    this.#parts = [];
    this.#bytes = 0;
    this.#ready = [];
    this.#dropping = null;
    this.#inner.clear();
  }

  #startDropping(): void {
    const held = Buffer.concat(this.#parts);
    this.#dropping = { head: held.subarray(0, oversizeEndBytes), tail: Buffer.alloc(0), bytes: 0 };
    this.#parts = [];
    this.#bytes = 0;
    this.#drop(held);
  }

  #drop(piece: Buffer): void {
    const d = this.#dropping as Dropping;
    d.bytes += piece.length;
    if (d.head.length < oversizeEndBytes)
      d.head = Buffer.concat([d.head, piece.subarray(0, oversizeEndBytes - d.head.length)]);
    const tail = piece.length >= oversizeEndBytes ? piece : Buffer.concat([d.tail, piece]);
    d.tail = Buffer.from(tail.subarray(Math.max(0, tail.length - oversizeEndBytes)));
  }

  #endLine(): void {
    const d = this.#dropping;
    if (d === null) {
      this.#ready.push(Buffer.concat([...this.#parts, lineEnd]));
      this.#parts = [];
      this.#bytes = 0;
      return;
    }
    this.#dropping = null;
    const id: JsonRpcId | null = peekId(d.head.toString('utf8')) ?? peekTailId(d.tail.toString('utf8'));
    // with no id to answer, the request it was for ends at its own deadline
    if (id !== null) this.#ready.push(oversizeAnswer(id, d.bytes, this.#maxBytes));
  }
}

/**
 * Puts a `LinearReadBuffer` capped at `maxBytes` in place of a stdio transport's SDK read buffer, when it has one of
 * that shape (SDK 1.x and 2.x `StdioClientTransport`); true when the transport's buffer is (now) one. Throws a
 * `GateError` (`USAGE`) when no SDK buffer admitting `maxBytes` can be had for it: one over a lower cap would drop
 * every answer between the two caps unanswered, so the gate refuses the transport rather than hang those reads.
 */
export function linearizeReadBuffer(transport: unknown, maxBytes: number): boolean {
  const holder = transport as { _readBuffer?: Partial<SdkReadBuffer> } | null;
  const inner = holder?._readBuffer;
  if (inner instanceof LinearReadBuffer) return true;
  if (
    inner === undefined ||
    typeof inner.append !== 'function' ||
    typeof inner.readMessage !== 'function' ||
    typeof inner.clear !== 'function'
  ) {
    return false;
  }
  // the SDK's own buffer parses each line this one hands it; its cap must admit a whole line under ours
  const parser = freshParser(inner as SdkReadBuffer, maxBytes + 1);
  (holder as { _readBuffer: SdkReadBuffer })._readBuffer = new LinearReadBuffer(parser, maxBytes);
  return true;
}

// a new SDK buffer of the same class with a cap of `maxBytes`; the given one when its class cannot be built that way
// but its own cap admits `maxBytes`; else a refusal naming the cap that could not be set
function freshParser(inner: SdkReadBuffer, maxBytes: number): SdkReadBuffer {
  let made: SdkReadBuffer | undefined;
  try {
    const Made = inner.constructor as new (options: { maxBufferSize: number }) => SdkReadBuffer;
    const parser = new Made({ maxBufferSize: maxBytes });
    if (typeof parser.append === 'function' && typeof parser.readMessage === 'function') made = parser;
  } catch {
    // the class cannot be built with a cap: the given buffer serves only if its own cap admits ours
  }
  // an SDK buffer keeps its cap as `_maxBufferSize` (1.x and 2.x); one built here that keeps none has no cap (1.x
  // before the cap came): either way it takes a line of `maxBytes`. The given one serves only when its cap is read
  // and admits the line
  if (made !== undefined && (capOf(made) ?? maxBytes) >= maxBytes) return made;
  if ((capOf(inner) ?? -1) >= maxBytes) return inner;
  throw new GateError(
    'USAGE',
    `cannot set the stdio read buffer's \`maxBufferSize\` to ${maxBytes} bytes (it is ${capOf(made ?? inner) ?? 'unknown'}): an answer between the two would be dropped unanswered; use an SDK whose \`ReadBuffer\` takes \`maxBufferSize\``,
  );
}

// the cap an SDK read buffer keeps (`_maxBufferSize`, 1.x and 2.x alike), bytes; undefined when it keeps none we read
function capOf(parser: SdkReadBuffer): number | undefined {
  const cap = (parser as { _maxBufferSize?: unknown })._maxBufferSize;
  return typeof cap === 'number' ? cap : undefined;
}
