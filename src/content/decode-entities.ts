// Character references hide scheme names from literal matching (`jav&#x61;script:`); XML and HTML
// parsers decode them in attribute values before the URL is used, so checks run on the decoded text.

const named: Readonly<Record<string, string>> = Object.freeze({
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  colon: ':',
  tab: '\t',
  newline: '\n',
  nbsp: '\u00a0',
  sol: '/',
  bsol: '\\',
  lpar: '(',
  rpar: ')',
  period: '.',
  comma: ',',
  semi: ';',
  equals: '=',
  excl: '!',
  num: '#',
  percnt: '%',
  plus: '+',
  quest: '?',
  commat: '@',
  lsqb: '[',
  rsqb: ']',
  lbrack: '[',
  rbrack: ']',
  lcub: '{',
  rcub: '}',
  grave: '`',
  hyphen: '-',
  dash: '-',
  lowbar: '_',
});

// A reference is what `/&(?:#[xX]0*([0-9a-fA-F]{1,8});?|#0*([0-9]{1,10});?|([A-Za-z][A-Za-z0-9]{1,31});)/` matches:
// parsed by hand, because a hostile tag can hold millions of them and a replace callback per match costs
// several times the bytes it reads

/** Most significant (after leading zeros) hex digits of a numeric reference, decimal digits, and characters of a name (as the pattern above). */
const maxHexDigits = 8;
const maxDecimalDigits = 10;
const maxNameChars = 32;

/** Decodes numeric (`&#97;`, `&#x61;`, semicolon optional as HTML allows) and common named character references once; unknown names stay as written. Linear in the text. */
export function decodeCharacterReferences(text: string): string {
  let at = text.indexOf('&');
  if (at === -1) return text;
  const parts: string[] = [];
  let last = 0;
  while (at !== -1) {
    const ref = decodeReferenceAt(text, at);
    if (ref === null) {
      at = text.indexOf('&', at + 1);
      continue;
    }
    parts.push(text.slice(last, at), ref.value);
    last = ref.end;
    at = text.indexOf('&', ref.end);
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(last));
  return parts.join('');
}

/** The character reference starting at `at` (an `&`), decoded exactly as `decodeCharacterReferences` does, and where it ends; null when no reference starts there. */
export function decodeReferenceAt(text: string, at: number): { value: string; end: number } | null {
  if (text.charCodeAt(at) !== 0x26) return null;
  let i = at + 1;
  if (text.charCodeAt(i) === 0x23) {
    i++;
    const x = text.charCodeAt(i);
    if (x === 0x78 || x === 0x58) {
      // HTML reads any number of leading zeros (`&#x000000006A;` is `j`); only significant digits are capped
      let j = i + 1;
      while (text.charCodeAt(j) === 0x30) j++;
      const zeros = j > i + 1;
      const start = j;
      let code = 0;
      for (
        let d = hexDigit(text.charCodeAt(j));
        d !== -1 && j - start < maxHexDigits;
        d = hexDigit(text.charCodeAt(j))
      ) {
        code = code * 16 + d;
        j++;
      }
      if (j > start || zeros) return numeric(code, text.charCodeAt(j) === 0x3b ? j + 1 : j);
    }
    let j = i;
    while (text.charCodeAt(j) === 0x30) j++;
    const zeros = j > i;
    const start = j;
    let code = 0;
    for (let c = text.charCodeAt(j); c >= 0x30 && c <= 0x39 && j - start < maxDecimalDigits; c = text.charCodeAt(j)) {
      code = code * 10 + (c - 0x30);
      j++;
    }
    if (j > start || zeros) return numeric(code, text.charCodeAt(j) === 0x3b ? j + 1 : j);
    return null;
  }
  if (!isLetter(text.charCodeAt(i))) return null;
  let j = i + 1;
  while (j - i < maxNameChars && isAlnum(text.charCodeAt(j))) j++;
  // a name is 2–32 characters followed directly by `;`
  if (j - i < 2 || text.charCodeAt(j) !== 0x3b) return null;
  const key = text.slice(i, j).toLowerCase();
  // own names only: `&constructor;` is not a reference
  const value = Object.hasOwn(named, key) ? named[key] : undefined;
  return { value: value ?? text.slice(at, j + 1), end: j + 1 };
}

// out-of-range and surrogate code points become U+FFFD, as HTML parsers do
function numeric(code: number, end: number): { value: string; end: number } {
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return { value: valid ? String.fromCodePoint(code) : '\uFFFD', end };
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function isLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

function isAlnum(c: number): boolean {
  return isLetter(c) || (c >= 0x30 && c <= 0x39);
}
