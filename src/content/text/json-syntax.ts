// Whether text is one JSON value (RFC 8259), answered by a single pass without building anything: the
// same answer as `JSON.parse` succeeding, at a cost per character instead of per value (JSON.parse of
// 10 MiB of `{},{},…` or of deeply nested arrays allocates millions of objects and takes over a second).

const ARRAY = 0;
const jsonLiterals = ['true', 'false', 'null'];
const pythonLiterals = [...jsonLiterals, 'NaN', 'Infinity'];
const OBJECT = 1;

/** True when `text` is exactly one JSON value with optional JSON white space around it, as `JSON.parse` accepts (`python`: also the `NaN`, `Infinity` and `-Infinity` Python's json reads and writes, as nbconvert does); linear in the text, depth held in an explicit stack. */
export function isJsonText(text: string, python = false): boolean {
  // container kinds by depth; grows by doubling, so a 10 MiB run of `[` costs a few reallocations
  let stack = new Uint8Array(64);
  let depth = 0;
  const push = (kind: number): void => {
    if (depth === stack.length) {
      const grown = new Uint8Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[depth++] = kind;
  };
  let i = skipSpace(text, 0);
  for (;;) {
    // a value starts at i
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) === (c === 0x7b ? 0x7d : 0x5d)) {
        i++;
      } else if (c === 0x5b) {
        push(ARRAY);
        continue;
      } else {
        push(OBJECT);
        i = member(text, i);
        if (i === -1) return false;
        continue;
      }
    } else if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      i = python && text.startsWith('-Infinity', i) ? i + 9 : numberEnd(text, i);
    } else {
      i = literalEnd(text, i, python);
    }
    if (i === -1) return false;
    // after a value: close containers, or go on after a comma
    for (;;) {
      i = skipSpace(text, i);
      if (depth === 0) return i === text.length;
      const top = stack[depth - 1];
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i = skipSpace(text, i + 1);
        if (top === OBJECT) {
          i = member(text, i);
          if (i === -1) return false;
        }
        break;
      }
      if (d !== (top === OBJECT ? 0x7d : 0x5d)) return false;
      depth--;
      i++;
    }
  }
}

// `"key"` white space `:` white space, returning where the member's value starts; -1 when malformed
function member(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x22) return -1;
  const end = stringEnd(text, at);
  if (end === -1) return -1;
  const colon = skipSpace(text, end);
  if (text.charCodeAt(colon) !== 0x3a) return -1;
  return skipSpace(text, colon + 1);
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

// a string from its opening quote: no raw control characters, escapes `\" \\ \/ \b \f \n \r \t \uXXXX`
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    if (i >= text.length) return -1;
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -1;
    if (c !== 0x5c) {
      i++;
      continue;
    }
    const e = text.charCodeAt(i + 1);
    if (e === 0x75) {
      for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(i + k))) return -1;
      i += 6;
    } else if (
      e === 0x22 ||
      e === 0x5c ||
      e === 0x2f ||
      e === 0x62 ||
      e === 0x66 ||
      e === 0x6e ||
      e === 0x72 ||
      e === 0x74
    ) {
      i += 2;
    } else {
      return -1;
    }
  }
}

// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
function numberEnd(text: string, at: number): number {
  let i = at;
  if (text.charCodeAt(i) === 0x2d) i++;
  if (text.charCodeAt(i) === 0x30) i++;
  else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
  else return -1;
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return -1;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return -1;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

function literalEnd(text: string, at: number, python: boolean): number {
  for (const word of python ? pythonLiterals : jsonLiterals) if (text.startsWith(word, at)) return at + word.length;
  return -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The value of JSON text as Python's json reads it (`isJsonText(text, true)`): `JSON.parse`, with `NaN`, `Infinity` and `-Infinity` outside strings read as null. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (!/NaN|Infinity/.test(text)) throw error;
    return JSON.parse(pythonLiteralsAsNull(text)) as unknown;
  }
}

// the text with each `NaN`, `Infinity` and `-Infinity` outside strings written `null`
function pythonLiteralsAsNull(text: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x4e || c === 0x49 || c === 0x2d) {
      const word = ['NaN', 'Infinity', '-Infinity'].find((w) => text.startsWith(w, i));
      if (word === undefined) continue;
      out += `${text.slice(from, i)}null`;
      i += word.length - 1;
      from = i + 1;
    }
  }
  return out + text.slice(from);
}
