import type { Line } from './json-lines.ts';

/** What `frameOf` gives to write: a string, or the buffers a line arrived as, newline included. */
export type Frame = string | readonly Buffer[];

// The bytes each parsed message arrived as, keyed by the parsed object: a message that passes the gate unchanged is
// forwarded as those bytes, never re-serialized (a rebuilt message can drop or reorder what a peer relies on)
const originals = new WeakMap<object, readonly Buffer[]>();

/** Parses one JSON line and remembers its bytes for `frameOf`; throws SyntaxError for invalid JSON. */
export function parseLine(line: Line): unknown {
  const value: unknown = JSON.parse(line.text);
  if (value !== null && typeof value === 'object') originals.set(value, line.parts);
  return value;
}

/** The line to send for `message`, newline included: the original bytes when it is the object `parseLine` returned, else its JSON. */
export function frameOf(message: unknown): Frame {
  const original = message !== null && typeof message === 'object' ? originals.get(message) : undefined;
  return original ?? `${JSON.stringify(message)}\n`;
}
