import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import type { Readable, Writable } from 'node:stream';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GateError } from '../errors.ts';
import { lineSplitter } from './json-lines.ts';
import { frameOf, parseLine } from './original-bytes.ts';
import { peekId, peekTailId } from '../flow/peek-id.ts';
import { messageShape } from '../flow/json-rpc-shape.ts';
import { type AmbiguousName, ambiguousName, namesAndBrackets } from '../flow/member-names.ts';
import { spanAt } from './json-spans.ts';

/** JSON-RPC code of a message the proxy could not take: over the byte cap, or not JSON. */
export const unreadableMessageCode = -32700;

// what `send` answers once its message is written: one promise, settled, for every message
const sent: Promise<void> = Promise.resolve();

// past this many bytes sent in one turn the lines are written at once (a pipe's buffer on Linux)
const flushBytes = 64 * 1024;

/** Why one line could not become a message. */
export interface UnreadableLine {
  /** the top-level id read from the line's start, when one could be read (for `ambiguous`: the answer's id, if any) */
  id: JsonRpcId | null;
  why: 'over-cap' | 'not-json' | 'not-a-message' | 'ambiguous';
  /** for `ambiguous`: the member name readers differ on (null: the line could not be followed member by member) */
  ambiguity?: AmbiguousName | null;
  /** for `ambiguous`: the id of the server's own request it is, when every reader reads the same id (it is answered) */
  request?: JsonRpcId;
}

/** Options of a line transport; `maxLineBytes` bounds what one message may buffer, bytes (≥ 1). */
export interface LineTransportOptions {
  input: Readable;
  output: Writable;
  maxLineBytes: number;
  /** a line that could not be parsed; the transport goes on with the next line */
  onUnreadable(line: UnreadableLine): void;
  /** called by `close` after the output ended (a child process to stop, say) */
  onClose?: () => Promise<void>;
  /**
   * refuse a line whose objects name a member twice or a read member in another case (`ambiguousName`): readers of its
   * bytes differ on what it says, so it is reported through `onUnreadable` (`ambiguous`, once per answer it holds) and
   * never becomes a message (a server's lines, in enforce mode)
   */
  refuseAmbiguous?: boolean;
}

/**
 * A line transport: a Transport whose reading can be paused while the other side cannot take more, and which writes
 * an `EditedLine` as the bytes it was edited from with the edits spliced in.
 */
export interface LineTransport extends Transport, PacedTransport {
  readonly writesEditedLines: true;
  /** `send` in this turn: throws what `send` rejects with (no promise per message written) */
  sendNow(message: JSONRPCMessage): void;
}

/** A transport that says when its peer reads slower than it is written to, and whose reading can be paused. */
export interface PacedTransport {
  /** true while the output holds more than its high-water mark: the peer is not keeping up */
  readonly backedUp: boolean;
  /** calls `then` once the output has drained (at once when it is not backed up) */
  whenDrained(then: () => void): void;
  /** stops reading the input; what the peer writes meanwhile waits in the pipe (and then in the peer) */
  pauseInput(): void;
  resumeInput(): void;
}

/**
 * A Transport over newline-delimited JSON-RPC on a pair of streams (a child's stdio, the proxy's own stdin/stdout).
 * Messages arrive parsed with their original bytes remembered; `send` writes those bytes when it is given the same
 * object back. One bad line (over the cap, not JSON) is reported through `onUnreadable` and never ends the stream.
 */
export function lineTransport(options: LineTransportOptions): LineTransport {
  const { input, output } = options;
  let closed = false;
  let oversizeWithoutId = false;
  const splitter = lineSplitter(options.maxLineBytes, {
    onLine(line) {
      // a blank line (LF or CRLF alone) is framing, not a message
      if (line.size <= 2 && (line.text === '\n' || line.text === '\r\n')) return;
      let message: unknown;
      try {
        message = parseLine(line);
      } catch {
        options.onUnreadable({ id: peekId(line.text.slice(0, 64 * 1024)), why: 'not-json' });
        return;
      }
      if (message === null || typeof message !== 'object') {
        options.onUnreadable({ id: null, why: 'not-a-message' });
        return;
      }
      if (options.refuseAmbiguous === true) {
        // a text JSON.parse read that the scan cannot follow is refused too (fail closed)
        // a line parsed with its long strings cut out is scanned so: its member names are the line's
        const { ambiguity, brackets } = namesAndBrackets(line.cut ?? line.text);
        // the scan read the line's structure: a judged answer is spliced with no second pass over it (the offsets
        // of a cut text are not the line's: its splice finds them again)
        if (line.cut === undefined) line.brackets = brackets;
        if (ambiguity !== null) {
          const ids = answerIds(message);
          const request = soleRequestId(line.text, message);
          for (const id of ids.length === 0 ? [null] : ids)
            options.onUnreadable({ id, why: 'ambiguous', ambiguity: ambiguity ?? null, ...request });
          return;
        }
      }
      transport.onmessage?.(message as JSONRPCMessage);
    },
    onOversize(head) {
      const id = peekId(head.toString('utf8'));
      // with no id at its start, the line is reported once it ends, with the id its last bytes carry (or none)
      oversizeWithoutId = id === null;
      if (id !== null) options.onUnreadable({ id, why: 'over-cap' });
    },
    onOversizeEnd(tail) {
      if (!oversizeWithoutId) return;
      oversizeWithoutId = false;
      options.onUnreadable({ id: peekTailId(tail.toString('utf8')), why: 'over-cap' });
    },
  });
  // the lines sent in this turn and not yet written (see `sendNow`)
  let outgoing: (string | Buffer)[] = [];
  let outgoingBytes = 0;
  let flushQueued = false;
  const writeOutgoing = () => {
    flushQueued = false;
    if (outgoing.length === 0) return;
    const parts = outgoing;
    outgoing = [];
    outgoingBytes = 0;
    // a closed output fails every write: `sendNow` threw for what was sent after it closed; what was sent before
    // meets the stream's own error
    if (parts.length === 1) output.write(parts[0]);
    else {
      output.cork();
      for (const part of parts) output.write(part);
      output.uncork();
    }
  };
  const onData = (chunk: Buffer) => splitter.push(chunk);
  const onEnd = () => finish();
  const onError = (error: Error) => transport.onerror?.(error);
  const finish = () => {
    if (closed) return;
    closed = true;
    input.off('data', onData);
    // a paused stream holds the event loop no longer: the proxy can exit while its host keeps the pipe open
    input.pause();
    transport.onclose?.();
  };

  const transport: LineTransport = {
    writesEditedLines: true,
    async start() {
      input.on('data', onData);
      input.once('end', onEnd);
      input.once('close', onEnd);
      input.on('error', onError);
      output.on('error', onError);
    },
    // written in this turn, as `sendNow`; its promise is one settled already, not an async function's (a promise
    // fewer per message sent)
    send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
      try {
        transport.sendNow(message);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return sent;
    },
    sendNow(message: JSONRPCMessage) {
      // the input ending (a host that closed its stdin) does not close the output: answers still in flight go out
      if (output.writableEnded || output.destroyed) throw new GateError('READ_FAILED', 'the connection is closed');
      const frame = frameOf(message);
      if (typeof frame === 'string') {
        outgoing.push(frame);
        outgoingBytes += frame.length;
      } else
        for (const part of frame) {
          outgoing.push(part);
          outgoingBytes += part.length;
        }
      // what one turn writes goes out in one writev once the turn is over (a chunk of a thousand reads answered is
      // one system call, as a byte relay's is), or at once past a pipe's worth
      if (outgoingBytes >= flushBytes) writeOutgoing();
      else if (!flushQueued) {
        flushQueued = true;
        setImmediate(writeOutgoing);
      }
    },
    async close() {
      writeOutgoing();
      output.end();
      await options.onClose?.();
      finish();
    },
    get backedUp() {
      return output.writableNeedDrain;
    },
    whenDrained(then) {
      if (!output.writableNeedDrain) then();
      else output.once('drain', then);
    },
    pauseInput() {
      input.pause();
    },
    resumeInput() {
      if (!closed) input.resume();
    },
  };
  return transport;
}

// the ids of the answers a parsed line holds (one message or a batch): a server's own request is not failed by its id,
// which names no request of the host
function answerIds(message: object): JsonRpcId[] {
  const ids: JsonRpcId[] = [];
  for (const m of Array.isArray(message) ? (message as unknown[]) : [message]) {
    const shape = messageShape(m);
    if (shape.kind === 'answer') ids.push(shape.id);
  }
  return ids;
}

// a server request's id, when the line is one request whose members but `params` every reader reads alike (with its
// `params` taken out, no member name is ambiguous): the server waits for its answer, so it gets the proxy's error
function soleRequestId(text: string, message: object): { request: JsonRpcId } | object {
  const shape = messageShape(message);
  if (shape.kind !== 'request') return {};
  const params = spanAt(text, ['params']);
  const rest = params === null ? text : `${text.slice(0, params.start)}null${text.slice(params.end)}`;
  return ambiguousName(rest) === null ? { request: shape.id } : {};
}
