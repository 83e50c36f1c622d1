// The bytes each parsed message arrived as, keyed by the parsed object: a message that passes the gate unchanged is
// forwarded as those bytes, never re-serialized (a rebuilt message can drop or reorder what a peer relies on)
const originals = new WeakMap<object, Buffer>();

/** Parses one JSON line and remembers its bytes for `frameOf`; throws SyntaxError for invalid JSON. */
export function parseLine(line: Buffer): unknown {
  const value: unknown = JSON.parse(line.toString('utf8'));
  if (value !== null && typeof value === 'object') originals.set(value, line);
  return value;
}

/** The bytes to send for `message`: the original line when it is the object `parseLine` returned, else its JSON. */
export function frameOf(message: unknown): Buffer | string {
  return (
    (message !== null && typeof message === 'object' ? originals.get(message) : undefined) ?? JSON.stringify(message)
  );
}
