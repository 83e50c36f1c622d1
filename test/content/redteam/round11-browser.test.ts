// Red team round 11 for browsers (issue 41): what Chromium runs by rules a reader of pages and SVG may not apply.
// XML documents whose root is not the xhtml `<html>` (an xhtml `<body>`, `<div>` or `<script>` as the root, xhtml
// elements under an Atom, RSS or MathML root), each served as XML; CSV and TSV whose first cell is a tag, which
// Chromium sniffs as a page when no type is declared; SVG and XML loaded as documents through `data:` urls written in
// the ways the url grammar allows (spaces and newlines in base64, percent-encoded base64, an upper-case scheme, extra
// parameters, an entity for the colon, a frameset); and images whose metadata (a jpeg comment, a gif comment, a webp
// XMP chunk, a png iTXt chunk) is a page when an image is served as html. Controls are SVG files that
// packages install (playwright's and pdf.js's icons, Adwaita's symbolic icons, node's docs), SVG documents showing a
// scripted SVG in image mode (`feImage`, a pattern's `image`, a css background, a mask image), CSV tables that
// distro-info-data installs (Chromium shows them as text when no type is declared), and READMEs that begin with a tag,
// served as text/plain the way a file server sends a file named `README`. The oracle is Chromium
// (chromium-oracles.ts): an attack is live when a script ran or the page asked for anything off its origin; a control
// runs nothing and asks for nothing elsewhere. A case that gets through is a `test.fails` named in `open` (the round's
// findings in its session's closing note). Under CI=true a missing Chromium fails.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, type TestContext, test } from 'vitest';
import { makeGif, makeJpeg, makePng, makeWebp } from '../../fixtures/make-bytes.ts';
import { repoRoot } from '../../helpers/shared-dir.ts';
import { mustRunRealParts } from '../../real-host/host-suite.ts';
import { profileGate } from '../consumers/profile-gate.ts';
import { useChromiumOracles } from './chromium-oracles.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from './judge-variants.ts';

const { becomesLive, isLive } = useChromiumOracles();
const ran = "fetch('http://ran.test/')";
const xhtml = 'http://www.w3.org/1999/xhtml';
const svgNs = 'http://www.w3.org/2000/svg';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const scripted = `<svg xmlns="${svgNs}" onload="${ran}"/>`;
const scriptedB64 = b64(scripted);

const xmlSendings = sendingsOf(
  'guide://feed/doc',
  ['.xml', '.rss', '.atom', '.txt', ''],
  ['application/xml', 'text/xml', 'application/atom+xml', 'text/plain', undefined],
);
const tableSendings = sendingsOf(
  'guide://data/table',
  ['.csv', '.tsv', '.txt', ''],
  ['text/csv', 'text/tab-separated-values', 'text/plain', undefined],
);
const pageSendings = sendingsOf(
  'guide://site/page',
  ['.html', '.md', '.txt', ''],
  ['text/plain', 'text/markdown', undefined],
);
const svgSendings = sendingsOf('guide://art/logo', ['.svg', ''], ['image/svg+xml', 'text/plain', undefined]);
const imageSendings = (type: string, ext: string): Sending[] =>
  sendingsOf('guide://media/photo', [ext, ''], [type, 'application/octet-stream', undefined]);

// an image with `markup` in its metadata: a jpeg COM segment, a gif comment extension, a webp XMP chunk, a png iTXt
function jpegComment(markup: string): Buffer {
  const jpeg = makeJpeg();
  const text = Buffer.from(markup, 'latin1');
  const head = Buffer.from([0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), head, text, jpeg.subarray(2)]);
}
function gifComment(markup: string): Buffer {
  const gif = makeGif();
  const text = Buffer.from(markup, 'latin1');
  const blocks: Buffer[] = [Buffer.from([0x21, 0xfe])];
  for (let i = 0; i < text.length; i += 255) {
    const part = text.subarray(i, i + 255);
    blocks.push(Buffer.from([part.length]), part);
  }
  blocks.push(Buffer.from([0]));
  // after the header, the logical screen descriptor and the 2-colour global table
  return Buffer.concat([gif.subarray(0, 19), ...blocks, gif.subarray(19)]);
}
function webpXmp(markup: string): Buffer {
  const webp = makeWebp();
  const text = Buffer.from(markup, 'latin1');
  const chunk = Buffer.alloc(8 + text.length + (text.length % 2));
  chunk.write('XMP ', 0, 'latin1');
  chunk.writeUInt32LE(text.length, 4);
  text.copy(chunk, 8);
  const out = Buffer.concat([webp, chunk]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}
function pngInternationalText(markup: string): Buffer {
  const png = makePng();
  const data = Buffer.concat([Buffer.from('Description\0\0\0\0\0', 'latin1'), Buffer.from(markup, 'utf8')]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('iTXt', 4, 'latin1');
  data.copy(chunk, 8);
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

// key, name, the type Chromium is served (undefined: none, Chromium sniffs), body, sendings
type Case = readonly [
  key: string,
  name: string,
  served: string | undefined,
  body: string | Buffer,
  sendings: readonly Sending[],
];

const attacks: Case[] = [
  [
    'xh-body-root',
    'an xml document whose root is an xhtml body holding a script',
    'application/xml',
    `<body xmlns="${xhtml}"><p>Notes</p><script>${ran}</script></body>`,
    xmlSendings,
  ],
  [
    'xh-div-root',
    'an xml document whose root is an xhtml div holding an img handler',
    'application/xml',
    `<div xmlns="${xhtml}"><img src="x" onerror="${ran}"/></div>`,
    xmlSendings,
  ],
  [
    'xh-script-root',
    'an xml document that is one xhtml script',
    'text/xml',
    `<script xmlns="${xhtml}">${ran}</script>`,
    xmlSendings,
  ],
  [
    'xh-iframe-root',
    'an xml document that is one xhtml iframe with a srcdoc',
    'application/xml',
    `<iframe xmlns="${xhtml}" srcdoc="&lt;script&gt;${ran}&lt;/script&gt;"/>`,
    xmlSendings,
  ],
  [
    'xh-atom-script',
    'an Atom feed holding an xhtml script',
    'application/atom+xml',
    `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>News</title><h:script xmlns:h="${xhtml}">${ran}</h:script></feed>`,
    xmlSendings,
  ],
  [
    'xh-atom-content',
    "an Atom entry's xhtml content with an img handler",
    'application/xml',
    `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><title>x</title><content type="xhtml"><div xmlns="${xhtml}"><img src="x" onerror="${ran}"/></div></content></entry></feed>`,
    xmlSendings,
  ],
  [
    'xh-rss-img',
    'an RSS channel holding an xhtml img handler',
    'application/xml',
    `<?xml version="1.0"?><rss version="2.0"><channel><title>x</title><h:img xmlns:h="${xhtml}" src="x" onerror="${ran}"/></channel></rss>`,
    xmlSendings,
  ],
  [
    'xh-mathml-root',
    'a MathML root holding an xhtml img handler',
    'application/xml',
    `<?xml version="1.0"?><math xmlns="http://www.w3.org/1998/Math/MathML"><h:img xmlns:h="${xhtml}" src="x" onerror="${ran}"/></math>`,
    xmlSendings,
  ],
  [
    'xh-child-default-ns',
    'a plain xml root whose child declares the xhtml namespace',
    'application/xml',
    `<doc><p xmlns="${xhtml}">Hi <img src="x" onerror="${ran}"/></p></doc>`,
    xmlSendings,
  ],
  [
    'csv-bold-header',
    'a csv whose first cell is bold, a handler in a later row',
    undefined,
    `<b>Name</b>,Age\nAda,36\n<img src=x onerror="${ran}">,1\n`,
    tableSendings,
  ],
  [
    'csv-comment-first',
    'a csv that opens with an html comment',
    undefined,
    `<!-- export 2026-12-06 -->,x\n<img src=x onerror="${ran}">,1\n`,
    tableSendings,
  ],
  [
    'tsv-paragraph',
    'a tsv whose first cell is a paragraph tag',
    undefined,
    `<p>\tname\n<img src=x onerror="${ran}">\t1\n`,
    tableSendings,
  ],
  [
    'csv-blank-lines-first',
    'a csv after blank lines, an upper-case first tag',
    undefined,
    `\n\n   <B>id</B>,v\n1,<svg onload="${ran}">\n`,
    tableSendings,
  ],
  [
    'csv-anchor-first',
    'a csv whose first cell is a link',
    undefined,
    `<a href=#>id</a>,v\n1,<img src=x onerror="${ran}">\n`,
    tableSendings,
  ],
  [
    'iframe-svg-b64-spaces',
    'an iframe of a data: svg whose base64 holds spaces',
    'text/html',
    `<p>x</p><iframe src="data:image/svg+xml;base64,${scriptedB64.replace(/(.{4})/g, '$1 ')}"></iframe>`,
    pageSendings,
  ],
  [
    'iframe-svg-b64-newlines',
    'an iframe of a data: svg whose base64 is wrapped',
    'text/html',
    `<p>x</p><iframe src="data:image/svg+xml;base64,${scriptedB64.replace(/(.{8})/g, '$1\n')}"></iframe>`,
    pageSendings,
  ],
  [
    'iframe-svg-utf8',
    'an iframe of a raw data: svg with a ;utf8 parameter',
    'text/html',
    `<p>x</p><iframe src='data:image/svg+xml;utf8,<svg xmlns="${svgNs}" onload="fetch(\`http://ran.test/\`)"/>'></iframe>`,
    pageSendings,
  ],
  [
    'iframe-svg-percent-b64',
    'an iframe of a data: svg whose base64 is percent-encoded',
    'text/html',
    `<p>x</p><iframe src="data:image/svg+xml;base64,${[...scriptedB64].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}"></iframe>`,
    pageSendings,
  ],
  [
    'iframe-svg-upper',
    'an iframe of an upper-case DATA: SVG url',
    'text/html',
    `<p>x</p><iframe src="DATA:IMAGE/SVG+XML;BASE64,${scriptedB64}"></iframe>`,
    pageSendings,
  ],
  [
    'iframe-svg-params',
    'an iframe of a data: svg with charset and name parameters',
    'text/html',
    `<p>x</p><iframe src="data:image/svg+xml;charset=utf-8;name=a.svg;base64,${scriptedB64}"></iframe>`,
    pageSendings,
  ],
  [
    'iframe-svg-colon-entity',
    'an iframe whose data: scheme has its colon as an entity',
    'text/html',
    `<p>x</p><iframe src="data&colon;image/svg+xml;base64,${scriptedB64}"></iframe>`,
    pageSendings,
  ],
  [
    'iframe-xml-xhtml-root',
    'an iframe of a data: xml document whose root is an xhtml script',
    'text/html',
    `<p>x</p><iframe src="data:text/xml;base64,${b64(`<x:script xmlns:x="${xhtml}">${ran}</x:script>`)}"></iframe>`,
    pageSendings,
  ],
  [
    'frameset-svg',
    'a frameset frame of a data: svg',
    'text/html',
    `<frameset><frame src="data:image/svg+xml;base64,${scriptedB64}"></frameset>`,
    pageSendings,
  ],
  [
    'svg-fo-iframe-svg',
    'an svg document framing a data: svg in foreignObject',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="50" height="50"><iframe xmlns="${xhtml}" src="data:image/svg+xml;base64,${scriptedB64}"/></foreignObject></svg>`,
    svgSendings,
  ],
  [
    'jpeg-comment-page',
    'a jpeg whose comment segment is a handler, read as a page',
    'text/html',
    jpegComment(`<img src=x onerror="${ran}">`),
    imageSendings('image/jpeg', '.jpg'),
  ],
  [
    'gif-comment-page',
    'a gif whose comment extension is a handler, read as a page',
    'text/html',
    gifComment(`<svg onload="${ran}">`),
    imageSendings('image/gif', '.gif'),
  ],
  [
    'webp-xmp-page',
    'a webp whose XMP chunk is a script, read as a page',
    'text/html',
    webpXmp(`<script>${ran}</script>`),
    imageSendings('image/webp', '.webp'),
  ],
  [
    'png-itxt-page',
    'a png whose iTXt chunk is a handler, read as a page',
    'text/html',
    pngInternationalText(`<img src=x onerror="${ran}">`),
    imageSendings('image/png', '.png'),
  ],
];

// a file a package installed: node_modules (npm ci) or the system's (the machine's own packages)
const installed = (file: string): string => (path.isAbsolute(file) ? file : path.join(repoRoot, 'node_modules', file));
function readInstalled(ctx: TestContext, file: string): Buffer {
  const at = installed(file);
  if (!existsSync(at)) {
    if (mustRunRealParts()) throw new Error(`${at} is missing under CI=true`);
    return ctx.skip(`${at} is missing`);
  }
  return readFileSync(at);
}

const scriptedData = `data:image/svg+xml;base64,${b64(`<svg xmlns="${svgNs}" width="8" height="8"><script>${ran}</script><rect width="8" height="8"/></svg>`)}`;
const svgControlSendings = sendingsOf('guide://art/figure', ['.svg', ''], ['image/svg+xml', undefined]);
const csvControlSendings = sendingsOf('guide://data/releases', ['.csv', ''], ['text/csv', 'text/plain', undefined]);
const readmeSendings: Sending[] = [
  ['guide://pkg/README', 'text/plain'],
  ['guide://pkg/README.md', 'text/plain'],
  ['guide://pkg/README.md', 'text/markdown'],
];

// key, name, the type Chromium is served, the body or an installed file, sendings
type Control = readonly [
  key: string,
  name: string,
  served: string | undefined,
  body: string | { file: string },
  sendings: readonly Sending[],
];
const controls: Control[] = [
  [
    'svg-playwright-logo',
    "playwright-core's logo",
    'image/svg+xml',
    { file: 'playwright-core/lib/vite/traceViewer/playwright-logo.svg' },
    svgControlSendings,
  ],
  [
    'svg-pdfjs-cursor',
    "pdf.js's ink cursor icon",
    'image/svg+xml',
    { file: 'pdfjs-dist/web/images/cursor-editorInk.svg' },
    svgControlSendings,
  ],
  [
    'svg-pdfjs-check',
    "pdf.js's check annotation icon",
    'image/svg+xml',
    { file: 'pdfjs-dist/web/images/annotation-check.svg' },
    svgControlSendings,
  ],
  [
    'svg-adwaita-folder',
    "Adwaita's symbolic folder icon",
    'image/svg+xml',
    { file: '/usr/share/icons/Adwaita/scalable/places/folder-symbolic.svg' },
    svgControlSendings,
  ],
  [
    'svg-node-docs-flavor',
    "node's docs ESM flavour toggle",
    'image/svg+xml',
    { file: '/usr/share/doc/nodejs/api/assets/js-flavor-esm.svg' },
    svgControlSendings,
  ],
  [
    'svg-feimage',
    'an svg filter drawing a scripted svg with feImage (image mode)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="16" height="16"><filter id="f"><feImage href="${scriptedData}"/></filter><rect width="16" height="16" filter="url(#f)"/></svg>`,
    svgControlSendings,
  ],
  [
    'svg-pattern-image',
    "a pattern's image of a scripted svg (image mode)",
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="16" height="16"><pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><image href="${scriptedData}" width="8" height="8"/></pattern><rect width="16" height="16" fill="url(#p)"/></svg>`,
    svgControlSendings,
  ],
  [
    'svg-css-background',
    'a css background of a scripted svg (image mode)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="16" height="16"><style>svg { background-image: url("${scriptedData}") }</style><rect width="4" height="4"/></svg>`,
    svgControlSendings,
  ],
  [
    'svg-mask-image',
    'a mask image of a scripted svg (image mode)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="16" height="16"><rect width="16" height="16" style="mask-image: url('${scriptedData}')"/></svg>`,
    svgControlSendings,
  ],
  [
    'csv-debian-releases',
    "distro-info-data's Debian releases",
    undefined,
    { file: '/usr/share/distro-info/debian.csv' },
    csvControlSendings,
  ],
  [
    'csv-ubuntu-releases',
    "distro-info-data's Ubuntu releases",
    undefined,
    { file: '/usr/share/distro-info/ubuntu.csv' },
    csvControlSendings,
  ],
  [
    'readme-protobufjs',
    "protobufjs's README (opens with an h1 tag; a script only in an html fence)",
    'text/plain',
    { file: 'protobufjs/README.md' },
    readmeSendings,
  ],
  [
    'readme-hashery',
    "hashery's README (opens with a div; a module script only in an html fence)",
    'text/plain',
    { file: 'hashery/README.md' },
    readmeSendings,
  ],
];

/** Cases that get through at the time of writing (named in the round's findings in its session's closing note). */
// readme-*: allowed since the lead's design call of session 14 (text/plain is judged as a page by what the markdown
// renderers make of it: their markdown keeps the script in its fence; Chromium shows text/plain as text)
const open = new Set<string>([]);

const bodyOf = (body: string | Buffer) => (typeof body === 'string' ? { text: body } : { blob: body });
const controlBody = (ctx: TestContext, body: string | { file: string }): string | Buffer =>
  typeof body === 'string' ? body : readInstalled(ctx, body.file);

let slowest = { key: '', ms: 0 };
async function judged(key: string, body: string | Buffer, sendings: readonly Sending[]) {
  const before = process.cpuUsage();
  const verdicts = await judgeSendings(bodyOf(body), sendings);
  const used = process.cpuUsage(before);
  const ms = (used.user + used.system) / 1000;
  if (ms > slowest.ms) slowest = { key, ms };
  return verdicts;
}
// every type an attack is sent as admitted: a sending is held only when the gate withholds it for what it does
const everyType = profileGate(undefined, [
  'text/html',
  'application/xml',
  'text/xml',
  'text/tab-separated-values',
  'application/octet-stream',
]);

describe('round 11: Chromium runs each attack or loads from elsewhere', () => {
  test.for(attacks.map(([key, name, served, body]) => ({ key, name, served, body })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ served, body }, ctx) => {
      expect(await becomesLive(ctx, served, body)).toBe(true);
    },
  );
});

describe('round 11: the shipped profile withholds each attack however it is sent, and so does every type admitted', () => {
  for (const [key, name, , body, sendings] of attacks)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, { timeout: 60_000 }, async () => {
      expect(letThrough(await judged(key, body, sendings))).toEqual([]);
      const all = await judgeSendings(bodyOf(body), sendings, everyType);
      expect(all.filter((v) => v.effect === 'allow').map((v) => v.sending)).toEqual([]);
    });
});

describe('round 11: Chromium loads each control inert', () => {
  test.for(controls.map(([key, name, served, body]) => ({ key, name, served, body })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ served, body }, ctx) => {
      expect(await isLive(ctx, served, controlBody(ctx, body))).toBe(false);
    },
  );
});

describe('round 11: the shipped profile allows each control however it is sent', () => {
  for (const [key, name, , body, sendings] of controls)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async (ctx) => {
      expect(refused(await judged(key, controlBody(ctx, body), sendings))).toEqual([]);
    });
  // printed, never asserted (speed is the bench's): after the suite, not as a test that cannot fail
  afterAll(() => {
    console.log(`round11-browser: slowest judgement ${slowest.key} ${slowest.ms.toFixed(0)} ms cpu`);
  });
});
