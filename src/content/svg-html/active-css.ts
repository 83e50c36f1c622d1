// Script in CSS (style attributes and `<style>` elements): legacy engines run `expression()` (IE 5–7),
// `behavior:` (IE HTC components) and `-moz-binding` (Firefox XBL), and `url(javascript:…)` was honoured by
// old engines; CSS escapes (`\65 `) and comments (`/**/`) hide those words from literal matching, so they are
// looked for after both are removed. One pass, no backtracking patterns.

const activeCss: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /expression\s*\(/i, what: 'a css `expression()`' },
  { pattern: /(?:java|vb|live)script:/i, what: 'a `javascript:` url in css' },
  { pattern: /behavio(?:u)?r\s*:/i, what: 'a css `behavior` (html component)' },
  { pattern: /-moz-binding\s*:/i, what: 'a css `-moz-binding`' },
];

/** The first script construct in CSS text (after comments and escapes are removed), as a one-line message; null when none. Linear in the text. */
export function findActiveCss(css: string): string | null {
  const plain = css.includes('\\') || css.includes('/*') ? normalizeCss(css) : css;
  for (const { pattern, what } of activeCss) if (pattern.test(plain)) return what;
  return null;
}

/** Drops CSS comments and decodes CSS escapes (CSS Syntax §4.3.7: up to six hex digits and one white space, or any other character); linear. */
export function normalizeCss(css: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < css.length) {
    const c = css.charCodeAt(i);
    if (c === 0x2f && css.charCodeAt(i + 1) === 0x2a) {
      const end = css.indexOf('*/', i + 2);
      i = end === -1 ? css.length : end + 2;
      continue;
    }
    if (c !== 0x5c) {
      out.push(css.charAt(i));
      i++;
      continue;
    }
    let j = i + 1;
    let code = 0;
    while (j < css.length && j - i <= 6 && isHex(css.charCodeAt(j))) {
      code = code * 16 + Number.parseInt(css.charAt(j), 16);
      j++;
    }
    if (j > i + 1) {
      const space = css.charCodeAt(j);
      if (space === 0x20 || space === 0x09 || space === 0x0a || space === 0x0c || space === 0x0d) j++;
      out.push(
        code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\uFFFD',
      );
      i = j;
    } else {
      // an escaped newline is a line continuation; any other escaped character stands for itself
      const next = css.charAt(i + 1);
      if (next !== '\n') out.push(next);
      i += 2;
    }
  }
  return out.join('');
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}
