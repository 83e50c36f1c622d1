// Red team round 10 for markdown renderers (issue 41): raw html a renderer passes on that Chromium reads by rules a
// tag-and-attribute reader may miss (a declarative shadow root, a refresh whose url follows a comma, an object holding
// a `data:` document), rendered by the five real renderers in their presets (markdown-differential.ts) and opened in
// Chromium; and README-style documents people write every day (a centred header with `<picture>`, badges, `<kbd>`, a
// video; a commented-out script; a textarea showing a script; a mermaid fence and math; tags named in a table;
// a `<noscript>` pixel): Chromium runs nothing in any renderer's page, and the gate allows them. A case that gets
// through is a `test.fails` named in `open` (the round's findings in its session's closing note). Under CI=true a missing Chromium fails.
import { describe, expect, test } from 'vitest';
import { useChromiumOracles } from './chromium-oracles.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const { renderersLive } = useChromiumOracles();
const ran = "fetch('http://ran.test/')";
const b64 = (s: string): string => Buffer.from(s).toString('base64');

// key, name, markdown, whether Chromium's act comes after load (a refresh)
const attacks: [string, string, string, boolean][] = [
  [
    'md-dsd-handler',
    'a handler in a declarative shadow root in a div block',
    `# Card\n\n<div><template shadowrootmode="open"><img src=x onerror="${ran}"></template>text</div>\n`,
    false,
  ],
  [
    'md-refresh-comma',
    'a refresh whose url follows a comma, inline in a paragraph',
    'Moved: <meta http-equiv="refresh" content="0,http://evil.test/x"> see the new page.\n',
    true,
  ],
  [
    'md-object-data',
    'an object holding a data: html document',
    `<object data="data:text/html;base64,${b64(`<script>${ran}</script>`)}"></object>\n`,
    false,
  ],
];

const controls: [string, string, string][] = [
  [
    'md-readme-header',
    'a README header: picture, badges, kbd, sub, an anchor, a video',
    '<div align="center">\n<picture>\n  <source media="(prefers-color-scheme: dark)" srcset="docs/logo-dark.svg">\n  <img alt="Logo" src="docs/logo.svg" width="200">\n</picture>\n\n[![CI](https://github.com/o/r/actions/workflows/ci.yml/badge.svg)](https://github.com/o/r/actions) <kbd>Ctrl</kbd>+<kbd>C</kbd> H<sub>2</sub>O\n</div>\n\n<a name="usage"></a>\n## Usage\n\n<video src="demo.mp4" controls muted></video>\n',
  ],
  [
    'md-commented-script',
    'a script left in an html comment, handler names in code spans',
    '# Notes\n\n<!-- <script src="https://cdn.example.com/old.js"></script> removed in 2.0 -->\n\nThe `onerror` handler and `<iframe srcdoc>` are escaped.\n',
  ],
  [
    'md-textarea',
    'a textarea showing a script',
    '# Form\n\n<textarea rows="3"><script>window.__ran=1</script></textarea>\n',
  ],
  [
    'md-mermaid-math',
    'a mermaid fence with a click directive, and display math',
    '# Flow\n\n```mermaid\ngraph TD; A-->B; click A "javascript:alert(1)"\n```\n\n$$\n\\sum_{i=0}^n i < n^2\n$$\n',
  ],
  [
    'md-tags-in-table',
    'tags named in code spans in a table',
    '| tag | use |\n|---|---|\n| `<script>` | runs code |\n| `<img onerror>` | handler |\n',
  ],
];

/** Cases that get through at the time of writing (named in the round's findings in its session's closing note). */
const open = new Set<string>([]);

const mdSendings = sendingsOf(
  'guide://docs/guide',
  ['.md', '.MARKDOWN', ''],
  ['text/markdown', 'text/plain', undefined],
);

describe('round 10: a real renderer makes each attack live in Chromium', () => {
  test.for(attacks.map(([key, name, md, after]) => ({ key, name, md, after })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ md, after }, ctx) => {
      expect(await renderersLive(ctx, md, after)).not.toEqual([]);
    },
  );
});

describe('round 10: the shipped profile withholds each attack however it is sent', () => {
  for (const [key, name, md] of attacks)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async () => {
      expect(letThrough(await judgeSendings({ text: md }, mdSendings))).toEqual([]);
    });
});

describe('round 10: every renderer renders each control inert in Chromium', () => {
  test.for(controls.map(([key, name, md]) => ({ key, name, md })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ md }, ctx) => {
      expect(await renderersLive(ctx, md, false)).toEqual([]);
    },
  );
});

describe('round 10: the shipped profile allows each control however it is sent', () => {
  for (const [key, name, md] of controls)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async () => {
      expect(refused(await judgeSendings({ text: md }, mdSendings))).toEqual([]);
    });
});
