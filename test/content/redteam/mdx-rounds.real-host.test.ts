// A fresh round for MDX (issue 41, opt-in consumer): JSX elements React renders as html that leaves or re-styles the
// page by itself, written with React's prop names (`httpEquiv`) or as a `<link>`: the real `@mdx-js/mdx` compiler
// (installed on demand into the test cache) evaluates each page with a recording JSX runtime, and an attack is live
// when the page rendered a meta refresh, a `base` or a stylesheet from elsewhere (Chromium follows each of these
// in a page: stylesheet-rounds.test.ts, browser-rounds.test.ts). Attacks are judged by the mdx adapter alone;
// controls under the whole profile with mdx. Under CI=true a missing compiler fails the suite.
import { describe, expect, test } from 'vitest';
import { defaultConsumerIds } from '../../../src/content/consumers/content-consumer.ts';
import { importFrom } from '../../frameworks/framework-package.ts';
import { decideBody, profileGate } from '../consumers/profile-gate.ts';
import { type Mdx, mdxCompilerSuite, rendered } from './mdx-oracle.ts';

const mdxOnly = profileGate(['mdx']);
const withMdx = profileGate([...defaultConsumerIds, 'mdx']);
const suite = mdxCompilerSuite();

const attacks: [string, string][] = [
  [
    'a jsx meta refresh by its react prop name',
    '# Moved\n\n<meta httpEquiv="refresh" content="0;url=https://evil.example/" />\n',
  ],
  [
    'a jsx meta refresh inline in a paragraph',
    'See <meta httpEquiv="Refresh" content="1; URL=https://evil.example/" /> the new page.\n',
  ],
  [
    'a jsx stylesheet link from elsewhere',
    '<link rel="stylesheet" href="https://evil.example/theme.css" />\n\n# Theme\n',
  ],
  [
    'a jsx protocol-relative stylesheet, several rel tokens',
    '# T\n\n<link rel="preload stylesheet" href="//evil.example/x.css" />\n',
  ],
];

const controls: [string, string][] = [
  ['a jsx stylesheet link on the site', '<link rel="stylesheet" href="/styles/extra.css" />\n\n# Theme\n'],
  [
    'a jsx meta description and an icon link',
    '<meta name="description" content="A guide" />\n<link rel="icon" href="https://cdn.example/favicon.ico" />\n\n# Guide\n',
  ],
];

const decide = (gate: typeof mdxOnly, text: string) =>
  decideBody(gate, 'guide://docs/page.mdx', 'text/markdown', { text });

describe('mdx: the real compiler renders each attack, the mdx adapter withholds it', () => {
  test.for(attacks.map(([name, text]) => ({ name, text })))('$name', async ({ text }, ctx) => {
    const mdx = await importFrom<Mdx>(suite.require(ctx), '@mdx-js/mdx');
    expect(await rendered(mdx, text)).not.toEqual([]);
    const verdict = await decide(mdxOnly, text);
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/mdx: /);
  });
});

describe('mdx: each control renders nothing that leaves the site and is allowed', () => {
  test.for(controls.map(([name, text]) => ({ name, text })))('$name', async ({ text }, ctx) => {
    const mdx = await importFrom<Mdx>(suite.require(ctx), '@mdx-js/mdx');
    expect(await rendered(mdx, text)).toEqual([]);
    expect(await decide(withMdx, text)).toEqual({ effect: 'allow', why: '' });
  });
});
