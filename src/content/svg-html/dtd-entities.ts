// A DOCTYPE internal subset that only names text: Adobe Illustrator's SVG export declares its namespace uris as
// entities (`<!ENTITY ns_ai "http://ns.adobe.com/AdobeIllustrator/10.0/">`) and uses them in `xmlns:` attributes.
// Such entities stand for a name or a uri wherever they are used, so the document is judged with them expanded, as
// the browser's XML reader expands them. Anything else a subset can hold (other characters in a value, parameter
// or external entities, attribute defaults, element declarations, redefined built-in entities) rewrites the
// document in ways the judge does not follow, and stays denied.

/** Most entities one subset may declare and still be read (Illustrator declares a handful). */
export const maxDeclaredEntities = 64;

/** Most characters the declared entities may add to a document once expanded (each use counted). */
export const maxEntityExpansionChars = 1024 * 1024;

const builtIn: ReadonlySet<string> = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
// a value is a name or a uri without white space, quotes, markup, references, `;`, `@` or parentheses: expanded
// anywhere (an attribute, a `<style>`), it cannot start markup, a css at-rule, a function or a `data:` url
const declaration = /^<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(?:"([\w:/.#?=~+,-]*)"|'([\w:/.#?=~+,-]*)')\s*>/;

/**
 * The general entities a DOCTYPE's internal subset declares when it declares nothing but comments and entities
 * whose values are names or uris: name to value, the first declaration of a name
 * binding, as XML says; null when the subset holds anything else. `doctype` is the DOCTYPE's text as saxes
 * reports it (after `<!DOCTYPE`); a DOCTYPE without a subset gives an empty map.
 */
export function plainTextEntities(doctype: string): Map<string, string> | null {
  const open = doctype.indexOf('[');
  if (open === -1) return new Map();
  const close = doctype.lastIndexOf(']');
  if (close < open || doctype.slice(close + 1).trim() !== '') return null;
  const entities = new Map<string, string>();
  let rest = doctype.slice(open + 1, close).trimStart();
  while (rest !== '') {
    if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->', 4);
      if (end === -1) return null;
      rest = rest.slice(end + 3).trimStart();
      continue;
    }
    const match = declaration.exec(rest);
    if (match === null) return null;
    const name = match[1] ?? '';
    if (builtIn.has(name)) return null;
    if (!entities.has(name)) entities.set(name, match[2] ?? match[3] ?? '');
    if (entities.size > maxDeclaredEntities) return null;
    rest = rest.slice(match[0].length).trimStart();
  }
  return entities;
}

/** The characters `entities` add to `text` once every `&name;` in it is expanded (an upper bound: uses in comments count too). */
export function entityExpansionChars(text: string, entities: ReadonlyMap<string, string>): number {
  let total = 0;
  for (const [name, value] of entities) {
    if (value.length === 0) continue;
    const reference = `&${name};`;
    for (let at = text.indexOf(reference); at !== -1; at = text.indexOf(reference, at + reference.length)) {
      total += value.length;
      if (total > maxEntityExpansionChars) return total;
    }
  }
  return total;
}
