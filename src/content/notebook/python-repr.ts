// Python's `repr` of a JSON value as `json.loads` made it: what nbconvert writes raw into a page for an output whose
// value is no string (nbformat joins only a list of strings; an object or any other list stays as it is, and the
// template prints it as Python prints it).

// Python's `str.isprintable()` is false for these (and true for every other character but for the ASCII space,
// which is printable): control, format, surrogate, private-use and unassigned characters, and separators
const nonPrintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr` of `value` (a string, number, boolean, null, list or object from JSON); null when it cannot be known here: an object whose keys JavaScript orders otherwise than Python (an integer-like key among others). */
export function pythonRepr(value: unknown): string | null {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return numberRepr(value);
  if (typeof value === 'string') return stringRepr(value);
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) {
      const repr = pythonRepr(item);
      if (repr === null) return null;
      items.push(repr);
    }
    return `[${items.join(', ')}]`;
  }
  if (typeof value !== 'object') return null;
  const keys = Object.keys(value);
  // JavaScript lists integer-like keys first, ascending; Python keeps the document's order, which is lost
  if (keys.length > 1 && keys.some((key) => /^(?:0|[1-9][0-9]*)$/.test(key))) return null;
  const entries: string[] = [];
  for (const key of keys) {
    const repr = pythonRepr((value as Record<string, unknown>)[key]);
    if (repr === null) return null;
    entries.push(`${stringRepr(key)}: ${repr}`);
  }
  return `{${entries.join(', ')}}`;
}

// digits as JavaScript writes them (Python writes a float `1.0` as `1.0`, JavaScript as `1`: digits either way, which
// no reader of the page takes for markup); NaN and the infinities, which json-syntax.ts reads as null, as None
function numberRepr(value: number): string {
  if (!Number.isFinite(value)) return 'None';
  return String(value);
}

// `'…'`, or `"…"` when the text holds a `'` and no `"`; backslash, the quote, tab, line feed and carriage return
// escaped by letter, any other non-printable character by its code point
function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === '\\' || char === quote) out += `\\${char}`;
    else if (char === '\t') out += '\\t';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char !== ' ' && nonPrintable.test(char)) out += codePointEscape(char.codePointAt(0) ?? 0);
    else out += char;
  }
  return out + quote;
}

function codePointEscape(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}
