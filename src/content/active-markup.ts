// Script in markup: elements, event-handler attributes and script URLs, looked for tag by tag with a
// linear scan (no backtracking regex over the whole body) and after character references are decoded.
import { decodeCharacterReferences } from './decode-entities.ts';

/** Markup flavours the scan knows; `text` is prose that may hold stray HTML (markdown, notes). */
export type MarkupFlavour = 'html' | 'svg' | 'xml' | 'text';

/** Longest tag body examined, characters; a longer tag is cut there (the rest is still scanned as later tags). */
export const maxTagChars = 65_536;

// SVG Tiny 1.2 `handler` and `listener` elements run script like `script` does
const activeElement = /^<\s*(?:(hta):application\b|(?:[a-z0-9_.-]+:)?(script|handler|listener|object|embed|applet)\b)/i;
// SMIL animation can set an event-handler attribute: <set attributeName="onclick" to="…">
const handlerAnimation = /attributeName\s*=\s*(?:["']\s*)?on[a-z]/i;
const handlerAttribute = /[\s"'\/](on[a-z][a-z0-9_-]*)\s*=/i;
const scriptUrl = /(?:java|vb|live)script:/i;
// data: urls may carry html or svg documents (script included); raster images are inert
const markupDataUrl = /(?:href|src|action|data|values|to|from|by|content|background|poster)\s*=\s*(?:["']\s*)?(?:[^"'\s>;]{0,64};\s*url\s*=\s*)?data:(?!image\/(?:png|jpe?g|gif|webp|bmp|avif)[;,])/i;
// a markdown link destination or reference definition: `](` or `]:`, spaces, an optional `<`, then the url
const markdownHead = /^\][ \t\r\n]*[(:][ \t\r\n]*(?:<[ \t\r\n]*)?[jJvVlL&]/;
const scriptScheme = /^(?:java|vb|live)script:/i;
/** Characters of a markdown link destination examined for a script url (room for a fully entity-encoded scheme). */
export const markdownWindowChars = 160;

/** The first active construct in markup or text (script element, HTA, plugin element, `on*` handler, script or markup `data:` URL, xml entity declaration, xslt), as a one-line message; null when none. */
export function findActiveMarkup(text: string, flavour: MarkupFlavour): string | null {
  if (flavour !== 'text' && /<!ENTITY\b/i.test(text)) return 'xml entity declarations can rewrite the document after inspection';
  if (flavour !== 'text' && /<\?xml-stylesheet\b[^>]*xsl/i.test(text)) return 'an xslt stylesheet can generate script';
  return scanTags(text) ?? scanMarkdownLinks(text);
}

function scanMarkdownLinks(text: string): string | null {
  let at = text.indexOf(']');
  while (at !== -1) {
    // `](` and `]:` are the only places a markdown renderer turns text into a link; the destination must
    // start with a script scheme's first letter or a character reference to be worth decoding
    const head = markdownHead.exec(text.slice(at, at + 64));
    if (head !== null) {
      const start = at + head[0].length - 1;
      const raw = text.slice(start, start + markdownWindowChars);
      const window = raw.includes('&') || /[\t\n\r]/.test(raw) ? stripUrlWhitespace(decodeCharacterReferences(raw)) : raw;
      if (scriptScheme.test(window)) return 'a markdown link with a `javascript:` url';
    }
    at = text.indexOf(']', at + 1);
  }
  return null;
}

function scanTags(text: string): string | null {
  let pos = text.indexOf('<');
  while (pos !== -1) {
    const next = text.charCodeAt(pos + 1);
    // a tag starts with `<` and a letter (or `/`, for handlers smuggled into end tags)
    if (isAsciiLetter(next) || next === 0x2f) {
      const close = text.indexOf('>', pos + 1);
      const end = close === -1 ? text.length : close + 1;
      const tag = text.slice(pos, Math.min(end, pos + maxTagChars));
      const found = inspectTag(tag);
      if (found !== null) return found;
      if (close === -1) return null;
      pos = text.indexOf('<', close + 1);
    } else {
      pos = text.indexOf('<', pos + 1);
    }
  }
  return null;
}

function inspectTag(tag: string): string | null {
  const element = activeElement.exec(tag);
  if (element !== null) {
    if (element[1] !== undefined) return 'an hta application element';
    const name = element[2]?.toLowerCase() ?? '';
    if (name === 'script') return 'a `<script>` element';
    return name === 'handler' || name === 'listener' ? `an svg \`<${name}>\` element` : 'a plugin element (`object`, `embed` or `applet`)';
  }
  // attributes need `=`; script urls need `:` or a character reference that could spell one
  const hasEquals = tag.includes('=');
  if (!hasEquals && !tag.includes(':') && !tag.includes('&')) return null;
  if (hasEquals) {
    const handler = handlerAttribute.exec(tag);
    if (handler !== null) return `an event-handler attribute \`${(handler[1] ?? '').toLowerCase()}\``;
    if (handlerAnimation.test(tag)) return 'an animation that sets an event-handler attribute';
  }
  const decoded = stripUrlWhitespace(decodeCharacterReferences(tag));
  if (scriptUrl.test(decoded)) return 'a `javascript:` or `vbscript:` url in an attribute (after entity decoding)';
  if (markupDataUrl.test(decoded)) return 'a `data:` url that can carry markup';
  // srcdoc and similar attributes hold entity-encoded documents
  if (/<\s*(?:[a-z0-9_.-]+:)?script\b/i.test(decoded.slice(1))) return 'an entity-encoded `<script>` element in an attribute';
  return null;
}

// URL parsers drop TAB, LF and CR anywhere in a URL and leading C0 controls and spaces (WHATWG URL §4.4)
function stripUrlWhitespace(text: string): string {
  return /[\t\n\r]/.test(text) ? text.replace(/[\t\n\r]/g, '') : text;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}
