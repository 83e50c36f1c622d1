// The escapes a reader decodes mechanically when a text is handed to it, each as one regex pass (linear): JavaScript
// and JSON string escapes; C, shell `$'…'` and sloppy-JavaScript octal with Python's `\U` and `\N{…}` beside them; CSS
// hex escapes; markdown backslash escapes; and the markup a renderer shows nothing of (an HTML comment, a tag). The
// read-back search (`read-back.ts`) reads a text once per style it holds, so no style's reading spoils another's.

/** The styles of escapes a text may hold, each read in a reading of its own (script escapes are read in every one). */
export type EscapeStyle = 'script' | 'markdown' | 'c' | 'css';

/** The styles besides `script` whose escapes `text` holds (a markdown escape, an octal or `\U`/`\N{` escape, a CSS one). */
export function escapeStyles(text: string): EscapeStyle[] {
  if (!text.includes('\\')) return [];
  const styles: EscapeStyle[] = [];
  if (markdownEscape.test(text)) styles.push('markdown');
  if (cEscape.test(text)) styles.push('c');
  if (cssEscape.test(text)) styles.push('css');
  return styles;
}

/** `text` with the escapes of `style` decoded (markdown's dropped before and after the script escapes: `\x5c.`). */
export function unescaped(text: string, style: EscapeStyle): string {
  switch (style) {
    case 'script':
      return scriptEscapesDecoded(text);
    case 'markdown': {
      const decoded = scriptEscapesDecoded(text.replace(markdownEscapes, '$1'));
      return decoded.includes('\\') ? decoded.replace(markdownEscapes, '$1') : decoded;
    }
    case 'c':
      return text.replace(cEscapes, cEscapeChar);
    case 'css':
      return text.replace(cssEscapes, cssEscapeChar);
  }
}

/**
 * `text` as a renderer shows it when it holds markup: each HTML comment (`<!-- … -->`, to the end when unclosed) and
 * each tag (`<span>`, `</b>`, `<br/>`) taken out; null when it holds none. Linear: comments found by `indexOf`, tags by
 * one regex pass whose run stops at the next `<`.
 */
export function withoutMarkup(text: string): string | null {
  if (!text.includes('<')) return null;
  let out = text;
  if (out.includes('<!--')) {
    const parts: string[] = [];
    let at = 0;
    for (let open = out.indexOf('<!--'); open !== -1; open = out.indexOf('<!--', at)) {
      parts.push(out.slice(at, open));
      const close = out.indexOf('-->', open + 4);
      at = close === -1 ? out.length : close + 3;
      if (close === -1) break;
    }
    parts.push(out.slice(at));
    out = parts.join('');
  }
  const bare = out.replace(tags, '');
  return bare === text ? null : bare;
}

const tags = /<\/?[A-Za-z][^<>]*>/g;

// a markdown backslash escape: a backslash before ASCII punctuation
const markdownEscape = /\\[!-/:-@[-`{-~]/;
const markdownEscapes = /\\([!-/:-@[-`{-~])/g;

// JavaScript and JSON string escapes a script or JSON reader decodes: `\xHH`, `\uHHHH`, `\u{H…}`, `\/`; one regex pass,
// each alternative a fixed width after its backslash (linear)
function scriptEscapesDecoded(text: string): string {
  return text.replace(scriptEscapes, (whole: string, x?: string, u?: string, cp?: string) => {
    const hex = x ?? u ?? cp;
    if (hex === undefined) return '/';
    return codePoint(Number.parseInt(hex, 16)) ?? whole;
  });
}

const scriptEscapes = /\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\}|\/)/g;

// C, shell `$'…'` and sloppy-mode JavaScript: octal (`\057`), Python's `\U0000002f` and `\N{SOLIDUS}`, and the script
// escapes beside them; an escaped backslash is one backslash (so the next character is not read as an escape)
const cEscape = /\\(?:[0-7]|U[0-9A-Fa-f]{8}|N\{)/;
const cEscapes =
  /\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\}|U([0-9A-Fa-f]{8})|N\{([A-Za-z][A-Za-z -]{0,40})\}|([0-3][0-7]{0,2}|[4-7][0-7]?)|(\/)|(\\))/g;

function cEscapeChar(
  whole: string,
  x?: string,
  u?: string,
  cp?: string,
  big?: string,
  name?: string,
  octal?: string,
  slash?: string,
  backslash?: string,
): string {
  if (slash !== undefined) return '/';
  if (backslash !== undefined) return '\\';
  if (octal !== undefined) return String.fromCharCode(Number.parseInt(octal, 8));
  if (name !== undefined) return asciiNames.get(name.toUpperCase()) ?? whole;
  const hex = x ?? u ?? cp ?? big;
  return hex === undefined ? whole : (codePoint(Number.parseInt(hex, 16)) ?? whole);
}

// CSS: a backslash, one to six hex digits and one optional white space; a backslash before any other character but a
// line break is that character
const cssEscape = /\\[0-9A-Fa-f]/;
const cssEscapes = /\\(?:([0-9A-Fa-f]{1,6})[ \t\n\r\f]?|([^\n\r\f0-9A-Fa-f]))/g;

function cssEscapeChar(_: string, hex?: string, other?: string): string {
  if (hex === undefined) return other ?? '';
  const code = Number.parseInt(hex, 16);
  return code === 0 ? '\ufffd' : (codePoint(code) ?? '\ufffd');
}

function codePoint(code: number): string | null {
  return code <= 0x10ffff ? String.fromCodePoint(code) : null;
}

/**
 * Unicode's names of the printable ASCII characters (every character an address is written in), as Python's
 * `\N{…}` reads them (without case); other names are left as written.
 */
const asciiNames: ReadonlyMap<string, string> = new Map([
  ...[
    'SPACE',
    'EXCLAMATION MARK',
    'QUOTATION MARK',
    'NUMBER SIGN',
    'DOLLAR SIGN',
    'PERCENT SIGN',
    'AMPERSAND',
    'APOSTROPHE',
    'LEFT PARENTHESIS',
    'RIGHT PARENTHESIS',
    'ASTERISK',
    'PLUS SIGN',
    'COMMA',
    'HYPHEN-MINUS',
    'FULL STOP',
    'SOLIDUS',
  ].map((n, i) => [n, String.fromCharCode(0x20 + i)] as const),
  ...['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'].map(
    (n, i) => [`DIGIT ${n}`, String.fromCharCode(0x30 + i)] as const,
  ),
  ...['COLON', 'SEMICOLON', 'LESS-THAN SIGN', 'EQUALS SIGN', 'GREATER-THAN SIGN', 'QUESTION MARK', 'COMMERCIAL AT'].map(
    (n, i) => [n, String.fromCharCode(0x3a + i)] as const,
  ),
  ...[
    'LEFT SQUARE BRACKET',
    'REVERSE SOLIDUS',
    'RIGHT SQUARE BRACKET',
    'CIRCUMFLEX ACCENT',
    'LOW LINE',
    'GRAVE ACCENT',
  ].map((n, i) => [n, String.fromCharCode(0x5b + i)] as const),
  ...['LEFT CURLY BRACKET', 'VERTICAL LINE', 'RIGHT CURLY BRACKET', 'TILDE'].map(
    (n, i) => [n, String.fromCharCode(0x7b + i)] as const,
  ),
  ...Array.from({ length: 26 }, (_, i) => [
    [`LATIN CAPITAL LETTER ${String.fromCharCode(0x41 + i)}`, String.fromCharCode(0x41 + i)] as const,
    [`LATIN SMALL LETTER ${String.fromCharCode(0x41 + i)}`, String.fromCharCode(0x61 + i)] as const,
  ]).flat(),
]);
