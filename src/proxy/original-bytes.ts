import type { Line } from './json-lines.ts';

/** What `frameOf` gives to write: a string, or the buffers a line arrived as, newline included. */
export type Frame = string | readonly Buffer[];

// The line each parsed message arrived as, keyed by the parsed object: a message that passes the gate unchanged is
// forwarded as those bytes, never re-serialized (a rebuilt message can drop or reorder what a peer relies on)
const originals = new WeakMap<object, Line>();
// lines made for messages the proxy changed, from their original text with only the changed parts edited
const made = new WeakMap<object, string>();

/** Parses one JSON line and remembers its bytes for `frameOf`; throws SyntaxError for invalid JSON. */
export function parseLine(line: Line): unknown {
  const value: unknown = JSON.parse(line.text);
  if (value !== null && typeof value === 'object') originals.set(value, line);
  return value;
}

/** The text `message` arrived as (newline included), when it is an object `parseLine` returned. */
export function originalText(message: object): string | null {
  return originals.get(message)?.text ?? null;
}

/** Makes `frameOf(message)` send `line` (one JSON text ending in a newline, whose value is `message`'s). */
export function rememberFrame(message: object, line: string): void {
  made.set(message, line);
}

/** The line to send for `message`, newline included: the original bytes when it is the object `parseLine` returned, else its JSON. */
export function frameOf(message: unknown): Frame {
  if (message === null || typeof message !== 'object') return `${JSON.stringify(message)}\n`;
  return originals.get(message)?.parts ?? made.get(message) ?? `${JSON.stringify(message)}\n`;
}
