// A URL in markup read the way the URL parser reads it (WHATWG URL §4.4 basic URL parser): leading and trailing
// C0 controls and spaces dropped, ASCII tab and newline removed anywhere, the scheme ASCII case-insensitive.
// The markup parser has already decoded character references (and CommonMark backslash escapes), so a value
// reaches here exactly as the consumer hands it to its URL parser.
import { refreshUrl } from './leaves-page.ts';

const scriptSchemes: ReadonlySet<string> = new Set(['javascript', 'vbscript', 'livescript']);
// `data:` documents run script (html, svg, xml); only raster images are inert
const inertDataTypes: ReadonlySet<string> = new Set([
  'image/png',
  'image/apng',
  'image/jpeg',
  'image/jpg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
]);

// elements that load their url as an image, by lower-case local name, and the attribute holding it
const imageLoaders: ReadonlyMap<string, string> = new Map([
  ['image', 'href'],
  ['feimage', 'href'],
  ['img', 'src'],
]);

/** The attribute an element loads its url from as an image (`href` of `<image>`, `src` of `<img>`; lower-case local names), undefined for other elements. */
export function svgImageAttribute(element: string): string | undefined {
  return imageLoaders.get(element);
}

/**
 * True when an attribute loads an svg `data:` url as an image (`<image href>`, `<feImage href>`, `<img src>`):
 * browsers run an svg image with script off and nothing loaded from it (Chromium's SVGImage, the SVG
 * Integration spec's secure animated mode), so it is judged in the mode it runs in, where nothing in it is active.
 */
export function svgImageUrl(element: string, attribute: string, value: string): boolean {
  if (imageLoaders.get(element) !== attribute) return false;
  const url = urlAsParsed(value);
  const colon = url.indexOf(':');
  if (colon < 1 || url.slice(0, colon).toLowerCase() !== 'data') return false;
  const rest = url.slice(colon + 1);
  const end = rest.search(/[;,]/);
  return (end === -1 ? rest : rest.slice(0, end)).trim().toLowerCase() === 'image/svg+xml';
}

/** Why a URL in markup is active (a script scheme, or a `data:` url that is not a raster image), as a one-line message; null when it is not. */
export function activeUrl(value: string): string | null {
  const url = urlAsParsed(value);
  const colon = url.indexOf(':');
  if (colon < 1 || !/^[a-z][a-z0-9+.-]*$/i.test(url.slice(0, colon))) return null;
  const scheme = url.slice(0, colon).toLowerCase();
  if (scriptSchemes.has(scheme)) return `a \`${scheme}:\` url`;
  if (scheme !== 'data') return null;
  // fetch's data: URL processor: the type runs to `,` or `;`, white space around it trimmed
  const rest = url.slice(colon + 1);
  const end = rest.search(/[;,]/);
  const type = (end === -1 ? rest : rest.slice(0, end)).trim().toLowerCase();
  return inertDataTypes.has(type) ? null : 'a `data:` url that can carry markup';
}

// attributes whose value lists several URLs: SMIL `values`/`to`/`from`/`by`, `srcset`, `ping`, `archive` (a meta
// refresh's `content="0;url=…"` is read by the standard's refresh steps, leaves-page.ts)
const listAttributes: ReadonlySet<string> = new Set([
  'values',
  'to',
  'from',
  'by',
  'srcset',
  'imagesrcset',
  'ping',
  'archive',
]);

const listSeparators: readonly RegExp[] = [/;/, /,/, /\s+/, /[;,\s]+/];

/** `activeUrl` for an attribute's value (lower-case local name): the whole value, and each URL of a list attribute. */
export function activeAttributeUrl(name: string, value: string): string | null {
  if (!value.includes(':')) return null;
  const whole = activeUrl(value);
  if (whole !== null) return whole;
  // a meta refresh navigates to the url the HTML standard's declarative refresh steps read from `content` (`0; url =
  // 'javascript:…'`); a value they do not read (`see javascript: urls`, a description) refreshes nothing
  if (name === 'content') {
    const url = refreshUrl(value);
    return url === null ? null : activeUrl(url);
  }
  if (!listAttributes.has(name)) return null;
  // each consumer splits on its own separators (SMIL `values` on `;` alone, keeping a newline inside an entry that the
  // URL parser then removes; `srcset` on `,` and white space; `ping` on white space): read every one of those splits
  for (const separator of listSeparators) {
    for (const part of value.split(separator)) {
      const piece = part.replace(/^\s*['"]|['"]\s*$/g, '');
      if (piece.trim().length === 0) continue;
      const found = activeUrl(piece);
      if (found !== null) return found;
    }
  }
  return null;
}

// leading/trailing C0 control or space stripped, tab and newline removed
function urlAsParsed(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  const trimmed = value.slice(start, end);
  return /[\t\n\r]/.test(trimmed) ? trimmed.replace(/[\t\n\r]/g, '') : trimmed;
}
