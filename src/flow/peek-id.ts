import { isJsonRpcId, type JsonRpcId } from './json-rpc-shape.ts';

/**
 * The top-level `id` of a JSON object read from the start of `text` (which may be cut off or malformed later on), or
 * null when the text does not start as an object or no complete `id` member comes before the damage. Used only to
 * fail the right request when a message cannot be parsed whole (over the byte cap, broken JSON): never to forward.
 */
export function peekId(text: string): JsonRpcId | null {
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return null;
  i += 1;
  while (i < text.length) {
    i = skipSpace(text, i);
    if (text[i] !== '"') return null;
    const keyEnd = stringEnd(text, i);
    if (keyEnd === -1) return null;
    const key = text.slice(i, keyEnd);
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') return null;
    i = skipSpace(text, i + 1);
    const valueEnd = valueEndAt(text, i);
    if (valueEnd === -1) return null;
    if (key === '"id"') return idValue(text.slice(i, valueEnd));
    i = skipSpace(text, valueEnd);
    if (text[i] !== ',') return null;
    i += 1;
  }
  return null;
}

function idValue(raw: string): JsonRpcId | null {
  try {
    const value: unknown = JSON.parse(raw);
    return isJsonRpcId(value) ? value : null;
  } catch {
    return null;
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i += 1;
  return i;
}

// index just after the closing quote of the string opening at `from`, or -1 when it is cut off
function stringEnd(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

// index just after the value starting at `from`, or -1 when it is cut off
function valueEndAt(text: string, from: number): number {
  const first = text[from];
  if (first === '"') return stringEnd(text, from);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = from; i < text.length; i += 1) {
      const c = text[i];
      if (c === '"') {
        const end = stringEnd(text, i);
        if (end === -1) return -1;
        i = end - 1;
      } else if (c === '{' || c === '[') depth += 1;
      else if (c === '}' || c === ']') {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = from;
  while (i < text.length && !',}] \t\r\n'.includes(text[i] as string)) i += 1;
  return i === text.length || i === from ? -1 : i;
}
