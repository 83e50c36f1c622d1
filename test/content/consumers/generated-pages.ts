// The generated pages of the browser differentials (issue 41 item 6), shared by the Chromium and the Firefox oracle:
// payloads that run without a click (elements, load and error handlers, frames from `srcdoc`, `data:` and
// `javascript:` urls, SVG script and animation) inside the contexts browsers and sanitizers read differently
// (raw-text and escapable elements, comments, CDATA, processing instructions, foreign content, templates, tables,
// selects, fallback content), with decoys that end, open or confuse a context.
import fc from 'fast-check';

// what a payload runs: a request to the beacon url, which reaches the test from any frame or origin
/** The script every payload runs: a fetch of the beacon url. */
export const run = "fetch('http://page.test/ran')";
/** The SVG namespace. */
export const svgNs = 'http://www.w3.org/2000/svg';
/** A page of its own, as a `data:` url, whose script runs the payload. */
export const dataPage = `data:text/html,<script>${run}</script>`;

/** Script and handlers a browser runs as the page loads, no click needed. */
export const payloads = [
  `<script>${run}</script>`,
  `<script src="data:text/javascript,${run}"></script>`,
  `<img src="x" onerror="${run}">`,
  `<IMG/SRC="x"/ONERROR="${run}">`,
  `<img\nsrc=x\nonerror="${run}">`,
  `<img srcset="x" onerror="${run}">`,
  `<image src="x" onerror="${run}">`,
  `<svg onload="${run}"></svg>`,
  `<svg><script>${run}</script></svg>`,
  `<svg><script href="data:text/javascript,${run}"></script></svg>`,
  `<svg><image href="x" onerror="${run}"/></svg>`,
  `<svg><set attributeName="x" to="1" onbegin="${run}"/></svg>`,
  `<svg><animate attributeName="x" dur="1s" onbegin="${run}"/></svg>`,
  `<body onload="${run}">`,
  `<body onpageshow="${run}">`,
  `<iframe srcdoc="<script>${run}</script>"></iframe>`,
  `<iframe srcdoc="&lt;img src=x onerror=&quot;${run}&quot;&gt;"></iframe>`,
  `<iframe src="${dataPage}"></iframe>`,
  `<iframe src="javascript:${run}"></iframe>`,
  `<iframe onload="${run}"></iframe>`,
  `<object data="${dataPage}"></object>`,
  `<embed src="${dataPage}">`,
  `<object data="x" onerror="${run}"></object>`,
  `<video><source src="x" onerror="${run}"></video>`,
  `<audio src="x" onerror="${run}"></audio>`,
  `<style onload="${run}"></style>`,
  `<link rel="stylesheet" href="x" onerror="${run}">`,
  `<details open ontoggle="${run}"><summary>x</summary></details>`,
  `<input autofocus onfocus="${run}">`,
  `<marquee onstart="${run}">x</marquee>`,
  `<math><mtext><img src="x" onerror="${run}"></mtext></math>`,
  `<svg><foreignObject><img src="x" onerror="${run}"></foreignObject></svg>`,
];

/** Contexts that may keep a payload inert, or not. */
export const wrappers: ((inner: string) => string)[] = [
  (x) => x,
  (x) => `<svg>${x}</svg>`,
  (x) => `<svg xmlns="${svgNs}"><desc>${x}</desc></svg>`,
  (x) => `<math>${x}</math>`,
  (x) => `<template>${x}</template>`,
  (x) => `<noscript>${x}</noscript>`,
  (x) => `<textarea>${x}</textarea>`,
  (x) => `<title>${x}</title>`,
  (x) => `<style>${x}</style>`,
  (x) => `<xmp>${x}</xmp>`,
  (x) => `<noembed>${x}</noembed>`,
  (x) => `<noframes>${x}</noframes>`,
  (x) => `<iframe>${x}</iframe>`,
  (x) => `<!--${x}-->`,
  (x) => `<!-- a --!>${x}`,
  (x) => `<!-->${x}`,
  (x) => `<![CDATA[${x}]]>`,
  (x) => `<svg><![CDATA[${x}]]></svg>`,
  (x) => `<?x ${x} ?>`,
  (x) => `<!x ${x}>`,
  (x) => `<table>${x}</table>`,
  (x) => `<table><tr><td>${x}</td></tr></table>`,
  (x) => `<select>${x}</select>`,
  (x) => `<select><option>${x}</option></select>`,
  (x) => `<video>${x}</video>`,
  (x) => `<object>${x}</object>`,
  (x) => `<div title="${x}">t</div>`,
  (x) => `<a href="#">${x}</a>`,
];

/** Pieces that end, open or confuse a context. */
export const decoys = [
  'text',
  '<p>',
  '</p>',
  '<div>',
  '-->',
  '--!>',
  ']]>',
  '</svg>',
  '</math>',
  '</style>',
  '</textarea>',
  '</title>',
  '</select>',
  '</table>',
  '</template>',
  '</noscript>',
  '</script>',
  '<a href="',
  '"',
  "'",
  '>',
  '<',
  '<!--',
  '<svg>',
  '<math>',
  '<select>',
  '<table>',
  '<noscript>',
];

const piece = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...wrappers), fc.constantFrom(...payloads)).map(([w, p]) => w(p)) },
  { weight: 2, arbitrary: fc.constantFrom(...decoys) },
);

/** A generated page: a few pieces in a row, after a doctype or not. */
export const pages = fc
  .tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 5 }))
  .map(([doctype, pieces]) => `${doctype ? '<!doctype html>' : ''}${pieces.join('')}`);
