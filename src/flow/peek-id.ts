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

/**
 * The top-level `id` of a JSON object read from the end of `text` (its start may be cut off): the id when it is the
 * object's last member and a string or number, else null. An SDK server writes `{"result":…,"jsonrpc":"2.0","id":7}`,
 * so an answer cut at the front still names its request. Used only to fail that request, never to forward.
 */
export function peekTailId(text: string): JsonRpcId | null {
  let end = text.length;
  while (end > 0 && ' \t\r\n'.includes(text[end - 1] as string)) end -= 1;
  if (text[end - 1] !== '}') return null;
  end = skipSpaceBack(text, end - 1);
  let start: number;
  if (text[end - 1] === '"') {
    start = end - 2;
    // the opening quote: one with an even number of backslashes before it
    while (start >= 0 && (text[start] !== '"' || backslashesBefore(text, start) % 2 === 1)) start -= 1;
    if (start < 0) return null;
  } else {
    start = end;
    while (start > 0 && /[0-9eE+\-.]/.test(text[start - 1] as string)) start -= 1;
    if (start === end) return null;
  }
  let i = skipSpaceBack(text, start);
  if (text[i - 1] !== ':') return null;
  i = skipSpaceBack(text, i - 1);
  if (text.slice(i - 4, i) !== '"id"' || backslashesBefore(text, i - 4) % 2 === 1) return null;
  const before = text[skipSpaceBack(text, i - 4) - 1];
  if (before !== ',' && before !== '{') return null;
  return idValue(text.slice(start, end));
}

function skipSpaceBack(text: string, from: number): number {
  let i = from;
  while (i > 0 && ' \t\r\n'.includes(text[i - 1] as string)) i -= 1;
  return i;
}

function backslashesBefore(text: string, at: number): number {
  let n = 0;
  while (at - n - 1 >= 0 && text[at - n - 1] === '\\') n += 1;
  return n;
}
