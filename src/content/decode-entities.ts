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

const reference = /&(?:#[xX]([0-9a-fA-F]{1,8});?|#([0-9]{1,10});?|([A-Za-z][A-Za-z0-9]{1,31});)/g;

/** Decodes numeric (`&#97;`, `&#x61;`, semicolon optional as HTML allows) and common named character references once; unknown names stay as written. */
export function decodeCharacterReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(reference, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (hex !== undefined || dec !== undefined) {
      const code = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(dec ?? '', 10);
      // out-of-range and surrogate code points become U+FFFD, as HTML parsers do
      if (!Number.isFinite(code) || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || code === 0) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    const value = named[(name ?? '').toLowerCase()];
    return value ?? whole;
  });
}
