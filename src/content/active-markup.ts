// Script in markup: elements, event-handler attributes and script URLs, looked for tag by tag and after
// character references are decoded. Every pass is linear: tags are found by `indexOf` and never overlap,
// each tag is read by a fixed number of patterns without nested quantifiers, entity-encoded documents inside
// attributes (`srcdoc`) are scanned again at most `maxNestedMarkup` levels deep, and markdown destinations are
// decoded only as far as they still spell a script scheme.
import { findActiveCss } from './active-css.ts';
import { decodeCharacterReferences, decodeReferenceAt } from './decode-entities.ts';

/** Markup flavours the scan knows; `text` is prose that may hold stray HTML (markdown, notes). */
export type MarkupFlavour = 'html' | 'svg' | 'xml' | 'text';

/** Characters the scan examined beyond its `indexOf` hops: tag bodies, markdown link heads and destinations, stylesheet instructions; counted for tests, never timed. */
export interface MarkupWork {
  chars: number;
}

// SVG Tiny 1.2 `handler` and `listener` elements run script like `script` does
const activeElement = /^<\s*(?:(hta):application\b|(?:[a-z0-9_.-]+:)?(script|handler|listener|object|embed|applet)\b)/i;
// the same element names at any `<` inside a tag: `<a<script>` and `<scr<script>ipt>` hide one tag in another
const gluedElement = /<\s*(?:[a-z0-9_.-]+:)?(?:script|handler|listener|object|embed|applet)\b/iy;
const styleElement = /^<\s*(?:[a-z0-9_.-]+:)?style\b/i;
const styleEnd = /<\/\s*(?:[a-z0-9_.-]+:)?style\b/gi;
const styleAttribute = /style\s*=/i;
const scriptElement = 'a `<script>` element';
// SMIL animation can set an event-handler attribute: <set attributeName="onclick" to="…">
const handlerAnimation = /attributeName\s*=\s*(?:["']\s*)?on[a-z]/i;
const handlerAttribute = /[\s"'\/](on[a-z][a-z0-9_-]*)\s*=/i;
const scriptUrl = /(?:java|vb|live)script:/i;
// data: urls may carry html or svg documents (script included); raster images are inert
const markupDataUrl =
  /(?:href|src|action|data|values|to|from|by|content|background|poster)\s*=\s*(?:["']\s*)?(?:[^"'\s>;]{0,64};\s*url\s*=\s*)?data:(?!image\/(?:png|jpe?g|gif|webp|bmp|avif)[;,])/i;
const encodedScript = /<\s*(?:[a-z0-9_.-]+:)?script\b/i;
const stylesheetInstruction = /<\?xml-stylesheet\b/gi;
const xslWord = /xsl/gi;
/** Levels of entity-encoded markup inside attributes scanned as documents of their own (`srcdoc` in `srcdoc`). */
export const maxNestedMarkup = 4;
const scriptSchemes = ['javascript:', 'vbscript:', 'livescript:'] as const;

/** The first active construct in markup or text (script element, HTA, plugin element, `on*` handler, script or markup `data:` URL, xml entity declaration, xslt), as a one-line message; null when none. Linear in the text. */
export function findActiveMarkup(text: string, flavour: MarkupFlavour, work: MarkupWork = { chars: 0 }): string | null {
  if (flavour !== 'text' && /<!ENTITY\b/i.test(text))
    return 'xml entity declarations can rewrite the document after inspection';
  if (flavour !== 'text' && hasXsltInstruction(text, work)) return 'an xslt stylesheet can generate script';
  return scanTags(text, work, 0) ?? scanMarkdownLinks(text, work);
}

// `<?xml-stylesheet … xsl … >`: each instruction needs the first `>` and the first `xsl` after it; both are
// found once and reused by later instructions (a `[^>]*` pattern rescans to the end for each one)
function hasXsltInstruction(text: string, work: MarkupWork): boolean {
  stylesheetInstruction.lastIndex = 0;
  let gt = -1;
  let xsl = -1;
  for (let m = stylesheetInstruction.exec(text); m !== null; m = stylesheetInstruction.exec(text)) {
    const from = m.index + m[0].length;
    if (gt < from) {
      const found = text.indexOf('>', from);
      gt = found === -1 ? text.length : found;
      work.chars += gt - from;
    }
    if (xsl < from) {
      xslWord.lastIndex = from;
      const found = xslWord.exec(text);
      xsl = found === null ? text.length : found.index;
      work.chars += xsl - from;
    }
    if (xsl < gt) return true;
  }
  return false;
}

function scanMarkdownLinks(text: string, work: MarkupWork): string | null {
  for (let at = text.indexOf(']'); at !== -1; at = text.indexOf(']', at + 1)) {
    // `](` and `]:` are the only places a markdown renderer turns text into a link; the destination must
    // start with a script scheme's first letter or a character reference to be worth decoding
    const start = destinationStart(text, at, work);
    if (start !== -1 && spellsScriptScheme(text, start, work)) return 'a markdown link with a `javascript:` url';
  }
  return null;
}

// where a link destination starts after the `]` at `at`: `]`, white space, `(` or `:`, white space, an optional
// `<` and white space, then `j`, `v`, `l` or `&`; -1 when there is none. CommonMark allows any run of spaces
// there; the runs read for two `]` never overlap (a `]` ends a run), so the whole pass stays linear
function destinationStart(text: string, at: number, work: MarkupWork): number {
  const limit = text.length;
  let i = at + 1;
  while (i < limit && isMarkdownSpace(text.charCodeAt(i))) i++;
  if (i >= limit) return done(work, i - at, -1);
  const opener = text.charCodeAt(i);
  if (opener !== 0x28 && opener !== 0x3a) return done(work, i - at, -1);
  i++;
  while (i < limit && isMarkdownSpace(text.charCodeAt(i))) i++;
  if (i < limit && text.charCodeAt(i) === 0x3c) {
    i++;
    while (i < limit && isMarkdownSpace(text.charCodeAt(i))) i++;
  }
  if (i >= limit) return done(work, i - at, -1);
  const first = text.charCodeAt(i) | 0x20;
  return done(
    work,
    i - at + 1,
    first === 0x6a || first === 0x76 || first === 0x6c || text.charCodeAt(i) === 0x26 ? i : -1,
  );
}

function done(work: MarkupWork, chars: number, result: number): number {
  work.chars += chars;
  return result;
}

function isMarkdownSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

// true when the text from `start`, with character references decoded and TAB/LF/CR dropped (as URL parsers
// do), starts with a script scheme (ascii case-insensitive); stops at the first character no scheme can
// continue with, so no `]` is ever inside what it reads
function spellsScriptScheme(window: string, start: number, work: MarkupWork): boolean {
  let alive = 0b111;
  let length = 0;
  let i = start;
  while (i < window.length) {
    let value: string;
    const ref = window.charCodeAt(i) === 0x26 ? decodeReferenceAt(window, i) : null;
    if (ref !== null) {
      work.chars += ref.end - i;
      value = ref.value;
      i = ref.end;
    } else {
      work.chars += 1;
      value = window.charAt(i);
      i += 1;
    }
    for (let k = 0; k < value.length; k++) {
      let c = value.charCodeAt(k);
      if (c === 0x09 || c === 0x0a || c === 0x0d) continue;
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      for (let s = 0; s < scriptSchemes.length; s++) {
        if ((alive & (1 << s)) === 0) continue;
        const scheme = scriptSchemes[s] ?? '';
        if (scheme.charCodeAt(length) !== c) alive &= ~(1 << s);
        else if (length + 1 === scheme.length) return true;
      }
      if (alive === 0) return false;
      length++;
    }
  }
  return false;
}

function scanTags(text: string, work: MarkupWork, depth: number): string | null {
  // style element contents already checked as css: a `<style>` inside one needs no second look
  let cssCheckedUntil = -1;
  let pos = text.indexOf('<');
  while (pos !== -1) {
    const next = text.charCodeAt(pos + 1);
    // a tag starts with `<` and a letter (or `/`, for handlers smuggled into end tags)
    if (isAsciiLetter(next) || next === 0x2f) {
      const close = tagEnd(text, pos);
      const end = close === -1 ? text.length : close + 1;
      work.chars += end - pos;
      const tag = text.slice(pos, end);
      const found = inspectTag(tag, work, depth);
      if (found !== null) return found;
      if (close === -1) return null;
      if (end > cssCheckedUntil && styleElement.test(tag)) {
        styleEnd.lastIndex = end;
        const closing = styleEnd.exec(text);
        cssCheckedUntil = closing === null ? text.length : closing.index;
        work.chars += cssCheckedUntil - end;
        const css = findActiveCss(text.slice(end, cssCheckedUntil));
        if (css !== null) return `${css} in a \`<style>\` element`;
      }
      pos = text.indexOf('<', close + 1);
    } else {
      pos = text.indexOf('<', pos + 1);
    }
  }
  return null;
}

// the `>` that ends the tag opened at `pos`, as an HTML tokenizer finds it: a quoted attribute value may hold
// `>` (`<img alt=">" onerror=…>` is one tag); -1 when the tag never ends. Reads only the tag itself.
function tagEnd(text: string, pos: number): number {
  for (let i = pos + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3e) return i;
    if (c !== 0x3d) continue;
    let v = i + 1;
    while (v < text.length && isHtmlSpace(text.charCodeAt(v))) v++;
    const quote = text.charCodeAt(v);
    if (quote === 0x22 || quote === 0x27) {
      const closing = text.indexOf(quote === 0x22 ? '"' : "'", v + 1);
      if (closing === -1) return -1;
      i = closing;
    } else {
      i = v - 1;
    }
  }
  return -1;
}

function isHtmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

function inspectTag(tag: string, work: MarkupWork, depth: number): string | null {
  const element = activeElement.exec(tag);
  if (element !== null) {
    if (element[1] !== undefined) return 'an hta application element';
    const name = element[2]?.toLowerCase() ?? '';
    if (name === 'script') return scriptElement;
    return name === 'handler' || name === 'listener'
      ? `an svg \`<${name}>\` element`
      : 'a plugin element (`object`, `embed` or `applet`)';
  }
  // a `<` inside the tag may start an element a lenient parser (or a naive filter's output) sees
  for (let inner = tag.indexOf('<', 1); inner !== -1; inner = tag.indexOf('<', inner + 1)) {
    gluedElement.lastIndex = inner;
    if (gluedElement.test(tag)) return 'a script or plugin element glued inside another tag';
  }
  // attributes need `=`; script urls need `:` or a character reference that could spell one
  const hasEquals = tag.includes('=');
  if (!hasEquals && !tag.includes(':') && !tag.includes('&')) return null;
  if (hasEquals && mayNameHandler(tag)) {
    const handler = handlerAttribute.exec(tag);
    if (handler !== null) return `an event-handler attribute \`${(handler[1] ?? '').toLowerCase()}\``;
    if (handlerAnimation.test(tag)) return 'an animation that sets an event-handler attribute';
  }
  const references = decodeCharacterReferences(tag);
  const decoded = stripUrlWhitespace(references);
  // script and data urls need a `:`; an encoded element needs a second `<`
  if (decoded.includes(':')) {
    if (scriptUrl.test(decoded)) return 'a `javascript:` or `vbscript:` url in an attribute (after entity decoding)';
    if (markupDataUrl.test(decoded)) return 'a `data:` url that can carry markup';
  }
  if (styleAttribute.test(decoded)) {
    const css = findActiveCss(decoded);
    if (css !== null) return `${css} in a \`style\` attribute`;
  }
  // srcdoc and similar attributes hold entity-encoded documents: scan them as documents of their own
  if (references !== tag && references.indexOf('<', 1) !== -1) {
    if (depth >= maxNestedMarkup)
      return encodedScript.test(references.slice(1)) ? 'an entity-encoded `<script>` element in an attribute' : null;
    const inner = scanTags(references.slice(1), work, depth + 1);
    if (inner !== null)
      return inner === scriptElement
        ? 'an entity-encoded `<script>` element in an attribute'
        : `entity-encoded markup in an attribute holds ${inner}`;
  }
  return null;
}

// URL parsers drop TAB, LF and CR anywhere in a URL and leading C0 controls and spaces (WHATWG URL §4.4)
function stripUrlWhitespace(text: string): string {
  return text.includes('\t') || text.includes('\n') || text.includes('\r') ? text.replace(/[\t\n\r]/g, '') : text;
}

// `on` + an ascii letter, any case: a cheap test before the handler patterns, which both need it
function mayNameHandler(tag: string): boolean {
  for (let i = 1; i + 1 < tag.length; i++) {
    if (
      (tag.charCodeAt(i) | 0x20) === 0x6e &&
      (tag.charCodeAt(i - 1) | 0x20) === 0x6f &&
      isAsciiLetter(tag.charCodeAt(i + 1))
    )
      return true;
  }
  return false;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}
