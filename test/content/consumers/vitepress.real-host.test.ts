// The VitePress consumer against VitePress itself (issue 41 items 2 and 6): a real `vitepress build`, installed on
// demand into the test cache (never a dependency), builds one page per case offline. An attack is shown active by
// what the build made of it (an interpolation or binding evaluated, a handler or script planted in the page, a
// handler compiled into the page's code) and withheld by the gate's vitepress adapter; a benign control is shown
// inert by the built page and allowed. Under CI=true a VitePress that cannot install or build fails the suite.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { defaultConsumerIds } from '../../../src/content/consumers/content-consumer.ts';
import { createGate } from '../../../src/gate/create-gate.ts';
import { parsePolicy } from '../../../src/policy/load-policy.ts';
import { useVitepressBuild } from './vitepress-build.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const defaultYaml = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
const gateFor = (consumers: readonly string[]) =>
  createGate(
    parsePolicy(defaultYaml.replace(/^content:\n/m, `content:\n  consumers: [${consumers.join(', ')}]\n`), 'vp.yaml'),
  );
// attacks are judged by the vitepress adapter alone, so each deny is its own; controls under the whole profile
const vitepressOnly = gateFor(['vitepress']);
const withVitepress = gateFor([...defaultConsumerIds, 'vitepress']);

// the marker every attack tries to make live: 7 × 191
const marker = '1337';

// name, page, and where the build shows it live: in the built html, or in the page's compiled code
const attacks: [string, string, 'html' | 'code', RegExp][] = [
  ['a `{{ }}` interpolation', '# Page\n\nTotal: {{ 7 * 191 }}\n', 'html', new RegExp(marker)],
  ['a `v-bind` shorthand', '# Page\n\n<span :data-total="7 * 191">x</span>\n', 'html', /data-total="1337"/],
  ['a `v-html` directive', '# Page\n\n<div v-html="\'<b onclick=alert(1)>x</b>\'"></div>\n', 'html', /<b onclick=/],
  ['a `@click` handler', '# Page\n\n<button @click="alert(1)">Go</button>\n', 'code', /onClick/],
  [
    'a `:href` javascript url',
    '# Page\n\n<a :href="\'javascript:alert(1)\'">x</a>\n',
    'html',
    /href="javascript:alert\(1\)"/,
  ],
  ['a markdown-it-attrs handler', '# Page {onclick="alert(1)"}\n\nText.\n', 'html', /<h1[^>]*onclick="alert\(1\)"/],
  [
    'a frontmatter head script',
    '---\nhead:\n  - - script\n    - {}\n    - "alert(1)"\n---\n\n# Page\n',
    'html',
    /<script>alert\(1\);?<\/script>/,
  ],
  ['an interpolation in an indented code block', '# Page\n\n    total {{ 7 * 191 }}\n', 'html', new RegExp(marker)],
  ['an interpolation in inline code', '# Page\n\nUse `{{ 7 * 191 }}` here.\n', 'html', new RegExp(marker)],
  // hidden round 5, rebuilt (contentred)
  ['an interpolation in a table cell', '| a | b |\n|---|---|\n| x | {{ 7 * 191 }} |\n', 'html', new RegExp(marker)],
  ['an interpolation in a heading', '# Total {{ 7 * 191 }}\n', 'html', new RegExp(marker)],
  ['a long-form `v-on:click`', '# Page\n\n<button v-on:click="alert(1)">Go</button>\n', 'code', /onClick/],
  [
    'a long-form `v-bind:href` javascript url',
    '# Page\n\n<a v-bind:href="\'javascript:alert(1)\'">x</a>\n',
    'html',
    /href="javascript:alert\(1\)"/,
  ],
  [
    'markdown-it-attrs on a paragraph',
    '# Page\n\nHover me\n{onmouseover="alert(1)"}\n',
    'html',
    /<p[^>]*onmouseover="alert\(1\)"/,
  ],
  [
    'a frontmatter head script with a src',
    '---\nhead:\n  - - script\n    - src: https://evil.example/x.js\n---\n\n# Page\n',
    'html',
    /<script src="https:\/\/evil\.example\/x\.js"/,
  ],
  ['an interpolation with CRLF lines', '# Page\r\n\r\nTotal: {{ 7 * 191 }}\r\n', 'html', new RegExp(marker)],
  // VitePress's containers (issue 41 item 5: `::: v-pre` content is allowed, what is around it is not)
  ['an interpolation in a tip title', '::: tip Total {{ 7 * 191 }}\nText.\n:::\n', 'html', new RegExp(marker)],
  [
    'an interpolation after a v-pre block',
    '::: v-pre\nShown.\n:::\n\nTotal {{ 7 * 191 }}\n',
    'html',
    new RegExp(marker),
  ],
];

const controls: [string, string][] = [
  ['a fenced block showing an interpolation', '# Page\n\n```vue\n<p>{{ 7 * 191 }}</p>\n```\n'],
  [
    'a v-pre block showing interpolations (issue 41 item 5)',
    '# Syntax\n\n::: v-pre\nWrite `{{ 7 * 191 }}` or {{ 7 * 191 }} and Vue shows it as written.\n:::\n',
  ],
  ['a tip with a title and a link', '::: tip Heads up\nRead the [guide](https://example.com/guide).\n:::\n'],
  ['attrs on a link setting a target', '# Page\n\nSee [docs](https://example.com/){target="_blank" rel="noopener"}.\n'],
  ['attrs setting an id and a class', '# Install {#setup .big}\n\nRun the [installer](https://example.com/x).\n'],
  [
    'an ordinary page with frontmatter',
    '---\ntitle: Guide\nhead:\n  - - meta\n    - name: description\n      content: A guide\n---\n\n# Guide\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
  ],
];

const { output } = useVitepressBuild('linkgate-vitepress-', [
  ...attacks.map(([, page]) => page),
  ...controls.map(([, page]) => page),
]);

async function decide(gate: ReturnType<typeof createGate>, text: string) {
  const uri = 'guide://docs/page.md';
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: 'page', mimeType: 'text/markdown' },
    result: { resultType: 'complete', contents: [{ uri, mimeType: 'text/markdown', text }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}

describe('vitepress: the real build makes each attack live, the gate withholds it', () => {
  test.for(attacks)('%s', async ([, page, where, live], ctx) => {
    const out = output(ctx, page);
    expect(out[where]).toMatch(live);
    const verdict = await decide(vitepressOnly, page);
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/vitepress: /);
  });
});

describe('vitepress: each control is inert in the real build and allowed', () => {
  test.for(controls)('%s', async ([, page], ctx) => {
    const out = output(ctx, page);
    expect(out.html).not.toContain(marker);
    expect(out.html).not.toMatch(/ on[a-z]+=|href="javascript:|<script>alert/i);
    expect(out.code).not.toMatch(/onClick/);
    expect(await decide(withVitepress, page)).toEqual({ effect: 'allow', why: '' });
  });
});
