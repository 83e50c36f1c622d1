// The pseudo-attributes of an `xml-stylesheet` processing instruction, read as the XML-stylesheet specification
// (W3C, second edition 2010, §2) writes them: `Name S? '=' S? value`, separated by white space, each value in
// double or single quotes holding no `<`, with character references and the five predefined entity references
// decoded. A regular expression that looks for `type="…"` anywhere finds it inside another value
// (`href='x type="text/css"' type="text/xsl"`); this reading cannot be led that way, and a body it cannot read
// is reported as such (the caller withholds it: a browser's reading of a malformed body is not known).

const predefined: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

function isXmlSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** The pseudo-attributes of an `xml-stylesheet` body (names as written, values decoded), or null when the body does not follow the grammar (a repeated name included). Linear in the body. */
export function xmlStylesheetAttributes(body: string): Map<string, string> | null {
  const attributes = new Map<string, string>();
  let at = 0;
  const skipSpace = (): void => {
    while (at < body.length && isXmlSpace(body.charAt(at))) at++;
  };
  skipSpace();
  while (at < body.length) {
    const nameStart = at;
    while (at < body.length && !isXmlSpace(body.charAt(at)) && !'="\'<&'.includes(body.charAt(at))) at++;
    const name = body.slice(nameStart, at);
    skipSpace();
    if (name === '' || body.charAt(at) !== '=') return null;
    at++;
    skipSpace();
    const quote = body.charAt(at);
    if (quote !== '"' && quote !== "'") return null;
    at++;
    let value = '';
    for (;;) {
      if (at >= body.length) return null;
      const c = body.charAt(at);
      if (c === quote) break;
      if (c === '<') return null;
      if (c === '&') {
        const end = body.indexOf(';', at);
        const decoded = end === -1 ? null : reference(body.slice(at + 1, end));
        if (decoded === null) return null;
        value += decoded;
        at = end + 1;
      } else {
        value += c;
        at++;
      }
    }
    at++;
    if (attributes.has(name)) return null;
    attributes.set(name, value);
    // pseudo-attributes are separated by white space
    if (at < body.length && !isXmlSpace(body.charAt(at))) return null;
    skipSpace();
  }
  return attributes;
}

// the text a character reference (`#…`, `#x…`) or a predefined entity reference names, or null
function reference(name: string): string | null {
  const entity = predefined.get(name);
  if (entity !== undefined) return entity;
  const hex = name.startsWith('#x');
  const digits = name.slice(hex ? 2 : 1);
  if (!name.startsWith('#') || digits === '' || digits.length > 8) return null;
  if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return null;
  const code = Number.parseInt(digits, hex ? 16 : 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
}
