// A fresh round for VitePress (issue 41, opt-in consumer): pages a real `vitepress build` (installed on demand into
// the test cache) makes live where the adapter read them as inert: frontmatter gray-matter evaluates as javascript
// (`---js`), Vue's `.prop` binding shorthand, dynamic components resolving to native `<script>`, and frontmatter
// `head` entries that refresh the page, re-base it or load a stylesheet from elsewhere. Live is what the build did
// (a marker file written while building) or made (the built page or its compiled code). Attacks are judged by the
// vitepress adapter alone; controls under the whole profile. Under CI=true a VitePress that cannot build fails.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { defaultConsumerIds } from '../../../src/content/consumers/content-consumer.ts';
import { decideBody, profileGate } from '../consumers/profile-gate.ts';
import { useVitepressBuild } from '../consumers/vitepress-build.ts';

const vitepressOnly = profileGate(['vitepress']);
const withVitepress = profileGate([...defaultConsumerIds, 'vitepress']);

// `MARK` stands for a file the build writes when it evaluates the page's frontmatter
const writesMark = "import('node:fs').then((fs) => fs.writeFileSync('MARK', 'ran'))";

// name, page, and where the build shows it live: a marker file written while building, the built html, the page's code
const attacks: [string, string, 'built' | 'html' | 'code', RegExp?][] = [
  ['a `---js` frontmatter block', `---js\n{ title: (${writesMark}, 'Guide') }\n---\n\n# Guide\n`, 'built'],
  [
    'an unclosed `---JavaScript` frontmatter block (the rest of the page is the block)',
    `---JavaScript\n({ title: (${writesMark}, 'Guide') })\n`,
    'built',
  ],
  [
    'a `--- js` frontmatter block with CRLF lines',
    `--- js\r\n{ title: (${writesMark}, 'x') }\r\n---\r\n\r\n# x\r\n`,
    'built',
  ],
  [
    'a `.innerHTML` property binding shorthand',
    '# Page\n\n<div .innerHTML="\'<img src=x onerror=alert(1)>\'"></div>\n',
    'code',
    /innerHTML":"<img src=x onerror=alert\(1\)>"/,
  ],
  [
    'a dynamic component resolving to a script',
    '# Page\n\n<component is="script">alert(1)</component>\n',
    'html',
    /<script>alert\(1\)<\/script>/,
  ],
  [
    'a frontmatter head meta refresh',
    '---\nhead:\n  - [meta, {http-equiv: refresh, content: "0;url=https://evil.example/"}]\n---\n\n# Page\n',
    'html',
    /<meta http-equiv="refresh" content="0;url=https:\/\/evil\.example\/">/,
  ],
  [
    'a frontmatter head base',
    '---\nhead:\n  - - base\n    - href: https://evil.example/\n---\n\n# Page\n',
    'html',
    /<base href="https:\/\/evil\.example\/">/,
  ],
  [
    'a frontmatter head stylesheet from elsewhere',
    '---\nhead:\n  - [link, {rel: stylesheet, href: "https://evil.example/x.css"}]\n---\n\n# Page\n',
    'html',
    /<link rel="stylesheet" href="https:\/\/evil\.example\/x\.css">/,
  ],
];

const controls: [string, string][] = [
  [
    'frontmatter head with an icon, a local stylesheet and social meta',
    '---\nhead:\n  - [link, {rel: icon, href: /favicon.ico}]\n  - [link, {rel: stylesheet, href: /theme/extra.css}]\n  - [meta, {property: "og:title", content: Guide}]\n---\n\n# Guide\n',
  ],
  ['a `---yaml` frontmatter block', '---yaml\ntitle: Guide\noutline: deep\n---\n\n# Guide\n\nText.\n'],
  ['a dynamic component naming a heading', '# Page\n\n<component is="h3">Notes</component>\n'],
];

const build = useVitepressBuild(
  'linkgate-vitepress-red-',
  [...attacks.map(([, page]) => page), ...controls.map(([, page]) => page)],
  (page, i) => pageOf(page, i),
);
const markOf = (i: number): string => path.join(build.site() ?? '', `mark-${i}`);
const pageOf = (page: string, i: number): string => page.replaceAll('MARK', markOf(i));
const output = build.output;

const decide = (gate: typeof vitepressOnly, page: string) =>
  decideBody(gate, 'guide://docs/page.md', 'text/markdown', { text: page.replaceAll('MARK', '/tmp/vp-mark') });

describe('vitepress: the real build makes each attack live, the vitepress adapter withholds it', () => {
  test.for(attacks.map((a, i) => ({ name: a[0], a, i })))('$name', async ({ a: [, page, where, live], i }, ctx) => {
    const out = output(ctx, page);
    if (where === 'built') expect(existsSync(markOf(i))).toBe(true);
    else expect(out[where]).toMatch(live ?? /$^/);
    const verdict = await decide(vitepressOnly, page);
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/vitepress: /);
  });
});

describe('vitepress: each control is inert in the real build and allowed', () => {
  test.for(controls.map((c) => ({ name: c[0], page: c[1] })))('$name', async ({ page }, ctx) => {
    const out = output(ctx, page);
    expect(out.html).not.toMatch(/ on[a-z]+=|href="javascript:|<script>alert|http-equiv="refresh"|<base /i);
    expect(out.html).not.toMatch(/<link rel="stylesheet" href="https?:/);
    expect(await decide(withVitepress, page)).toEqual({ effect: 'allow', why: '' });
  });
});
