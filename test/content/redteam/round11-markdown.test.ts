// Red team round 11 for markdown renderers (issue 41 item 5, "SVG-in-image is judged as the image mode it runs in"):
// README-style documents showing an SVG through a markdown image (`![…](data:image/svg+xml…)`, inline or by
// reference), which every renderer either drops (markdown-it and marked refuse `data:` urls other than raster
// images) or draws as an `<img>`, where Chromium runs an SVG with script off, beside the READMEs that packages
// install (markdown-it's, marked's, commonmark's, express's, fast-check's, python3-yaml's, underscore's). The oracle
// is the five real renderers in their presets, each page opened in Chromium (chromium-oracles.ts): nothing runs and
// nothing but images is asked for elsewhere. A control the gate refuses is a `test.fails` named in `open` (the round's
// findings in its session's closing note). Under CI=true a missing Chromium fails.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, type TestContext, test } from 'vitest';
import { repoRoot } from '../../helpers/shared-dir.ts';
import { mustRunRealParts } from '../../real-host/host-suite.ts';
import { useChromiumOracles } from './chromium-oracles.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const { isLive, renderersLive } = useChromiumOracles();
const svgNs = 'http://www.w3.org/2000/svg';
const badge = `<svg xmlns="${svgNs}" width="90" height="20"><rect width="90" height="20" rx="3" fill="#4c1"/><text x="45" y="14" fill="#fff" font-family="Verdana" font-size="11" text-anchor="middle">passing</text></svg>`;
const badgeB64 = `data:image/svg+xml;base64,${Buffer.from(badge).toString('base64')}`;
const badgePercent = `data:image/svg+xml,${encodeURIComponent(badge)}`;
// a logo with a script, shown only as an image: Chromium draws it with script off
const scriptedLogo = `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="${svgNs}" width="8" height="8"><script>fetch('http://ran.test/')</script><circle r="4" cx="4" cy="4"/></svg>`).toString('base64')}`;

// key, name, the markdown or an installed README (node_modules, or the system's)
const controls: [string, string, string | { file: string }][] = [
  ['md-svg-badge-b64', 'a build badge as a base64 data: svg image', `# Tool\n\n![build](${badgeB64}) Fast.\n`],
  [
    'md-svg-badge-percent',
    'a build badge as a percent-encoded data: svg image',
    `# Tool\n\n![build](${badgePercent})\n`,
  ],
  [
    'md-svg-badge-reference',
    'a badge image by reference to a data: svg',
    `# Tool\n\n![build][badge]\n\n[badge]: ${badgeB64}\n`,
  ],
  ['md-svg-scripted-logo', 'a logo whose svg holds a script, shown only as an image', `![logo](${scriptedLogo})\n`],
  ['readme-markdown-it', "markdown-it's README", { file: 'markdown-it/README.md' }],
  ['readme-marked', "marked's README", { file: 'marked/README.md' }],
  // README files that open with a tag and show a `<script>` only in an html fence (round11-browser's Chromium
  // controls serve them as text/plain): every renderer renders the fence as code
  ['readme-protobufjs', "protobufjs's README", { file: 'protobufjs/README.md' }],
  ['readme-hashery', "hashery's README", { file: 'hashery/README.md' }],
  ['readme-commonmark', "commonmark's README", { file: 'commonmark/README.md' }],
  ['readme-express', "express's Readme", { file: 'express/Readme.md' }],
  ['readme-fast-check', "fast-check's README", { file: 'fast-check/README.md' }],
  ['readme-pyyaml', "python3-yaml's README", { file: '/usr/share/doc/python3-yaml/README.md' }],
  ['readme-underscore', "libjs-underscore's README", { file: '/usr/share/doc/libjs-underscore/README.md' }],
];

/** Controls refused at the time of writing (named in the round's findings in its session's closing note). */
// md-svg-*: allowed since the lead's design call of session 14 (a markdown image of an svg `data:` url is an `<img>`);
// readme-marked, -protobufjs, -hashery: since its call on text/plain (a page by what the renderers make of it)
const open = new Set<string>([]);

function markdownOf(ctx: TestContext, from: string | { file: string }): string {
  if (typeof from === 'string') return from;
  const at = path.isAbsolute(from.file) ? from.file : path.join(repoRoot, 'node_modules', from.file);
  if (!existsSync(at)) {
    if (mustRunRealParts()) throw new Error(`${at} is missing under CI=true`);
    return ctx.skip(`${at} is missing`);
  }
  return readFileSync(at, 'utf8');
}

// declared markdown or text: what the markdown renderers make of it decides, whatever its name
const mdSendings = sendingsOf('guide://docs/readme', ['.md', '.markdown', ''], ['text/markdown', 'text/plain']);
// declared nothing: a browser served it with no type sniffs it, whatever its name (Chromium renders a README that
// opens with `<p align="center">` as a page, where a fenced `<script>` runs), so Chromium is the oracle there
const undeclaredSendings = sendingsOf('guide://docs/readme', ['.md', '.markdown', ''], [undefined]);

let slowest = { key: '', ms: 0 };

describe('round 11: every renderer renders each control inert in Chromium', () => {
  test.for(controls.map(([key, name, from]) => ({ key, name, from })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ from }, ctx) => {
      expect(await renderersLive(ctx, markdownOf(ctx, from), false)).toEqual([]);
    },
  );
});

describe('round 11: the shipped profile allows each markdown control however it is sent', () => {
  for (const [key, name, from] of controls)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async (ctx) => {
      const before = process.cpuUsage();
      const verdicts = await judgeSendings({ text: markdownOf(ctx, from) }, mdSendings);
      const used = process.cpuUsage(before);
      if ((used.user + used.system) / 1000 > slowest.ms) slowest = { key, ms: (used.user + used.system) / 1000 };
      expect(refused(verdicts)).toEqual([]);
    });
  // undeclared: allowed where Chromium, served it with no type, shows it inert (an image from elsewhere is a link the
  // gate judges as one); withheld for what it holds where the page it sniffs runs a script or loads anything else from
  // elsewhere (marked's, protobufjs's and hashery's READMEs today)
  for (const [key, name, from] of controls)
    test(`${key}: ${name}, sent with no type, as Chromium sniffs it`, { timeout: 120_000 }, async (ctx) => {
      const text = markdownOf(ctx, from);
      const verdicts = await judgeSendings({ text }, undeclaredSendings);
      if (await isLive(ctx, undefined, text, true)) expect(letThrough(verdicts)).toEqual([]);
      else expect(refused(verdicts)).toEqual([]);
    });
  // printed, never asserted (speed is the bench's)
  afterAll(() => {
    console.log(`round11-markdown: slowest judgement ${slowest.key} ${slowest.ms.toFixed(0)} ms cpu`);
  });
});
