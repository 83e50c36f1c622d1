// The bytes each parsed message arrived as, keyed by the parsed object: a message that passes the gate unchanged is
// forwarded as those bytes, never re-serialized (a rebuilt message can drop or reorder what a peer relies on)
const originals = new WeakMap<object, Buffer>();

/** Parses one JSON line (ending in its newline) and remembers its bytes for `frameOf`; throws SyntaxError for invalid JSON. */
export function parseLine(line: Buffer): unknown {
  const value: unknown = JSON.parse(line.toString('utf8'));
  if (value !== null && typeof value === 'object') originals.set(value, line);
  return value;
}

/** The line to send for `message`, newline included: the original bytes when it is the object `parseLine` returned, else its JSON. */
export function frameOf(message: unknown): Buffer | string {
  const original = message !== null && typeof message === 'object' ? originals.get(message) : undefined;
  if (original === undefined) return `${JSON.stringify(message)}\n`;
  // the last line of a stream may end without a newline; the peer still needs one
  return original[original.length - 1] === 10 ? original : Buffer.concat([original, Buffer.from('\n')]);
}
