// Red team round 10 for MDX (issue 41, opt-in consumer): JSX a page writes that React renders as a refresh or a
// stylesheet from elsewhere, spelled the ways JSX and the URL parser read and a string match may not: a refresh url
// after a comma, a backslashed protocol-relative href, an uppercase rel and scheme, an href written with html
// character references (JSX decodes them in attribute strings). The real `@mdx-js/mdx` compiler (installed on demand
// into the test cache) evaluates each page with a recording JSX runtime (the oracle of mdx-rounds.real-host.test.ts);
// attacks are judged by the mdx adapter alone, the control under the whole profile with mdx. A case that gets through
// is a `test.fails` named in `open` (the round's findings in its session's closing note). Under CI=true a missing compiler fails.
import { describe, expect, test } from 'vitest';
import { defaultConsumerIds } from '../../../src/content/consumers/content-consumer.ts';
import { importFrom } from '../../frameworks/framework-package.ts';
import { decideBody, profileGate } from '../consumers/profile-gate.ts';
import { type Mdx, mdxCompilerSuite, rendered } from './mdx-oracle.ts';

const mdxOnly = profileGate(['mdx']);
const withMdx = profileGate([...defaultConsumerIds, 'mdx']);
const suite = mdxCompilerSuite();

const attacks: [string, string, string][] = [
  [
    'mdx-refresh-comma',
    'a jsx refresh whose url follows a comma',
    '# Moved\n\n<meta httpEquiv="refresh" content="0,https://evil.example/" />\n',
  ],
  [
    'mdx-link-backslashes',
    'a jsx stylesheet href written with backslashes',
    '# T\n\n<link rel="stylesheet" href="\\\\evil.example\\x.css" />\n',
  ],
  [
    'mdx-link-uppercase',
    'a jsx stylesheet with an uppercase rel and scheme',
    '# T\n\n<link rel="StyleSheet" href="HTTPS://EVIL.EXAMPLE/x.css" />\n',
  ],
  [
    'mdx-link-references',
    'a jsx stylesheet href written with character references',
    '# T\n\n<link rel="stylesheet" href="https:&#x2F;&#x2F;evil.example/x.css" />\n',
  ],
];

const controls: [string, string][] = [
  [
    'a jsx meta content type and a relative stylesheet',
    '<meta httpEquiv="content-type" content="text/html; charset=utf-8" />\n<link rel="stylesheet" href="&#x2E;/extra.css" />\n\n# Guide\n',
  ],
];

/** Cases that get through at the time of writing (named in the round's findings in its session's closing note). */
const open = new Set<string>([]);

const decide = (gate: typeof mdxOnly, text: string) =>
  decideBody(gate, 'guide://docs/page.mdx', 'text/markdown', { text });

describe('round 10 mdx: the real compiler renders each attack', () => {
  test.for(attacks.map(([key, name, text]) => ({ key, name, text })))('$key: $name', async ({ text }, ctx) => {
    const mdx = await importFrom<Mdx>(suite.require(ctx), '@mdx-js/mdx');
    expect(await rendered(mdx, text)).not.toEqual([]);
  });
});

describe('round 10 mdx: the mdx adapter withholds each attack', () => {
  for (const [key, name, text] of attacks)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async () => {
      const verdict = await decide(mdxOnly, text);
      expect(verdict.effect, verdict.why).toBe('deny');
      expect(verdict.why).toMatch(/mdx: /);
    });
});

describe('round 10 mdx: each control renders nothing that leaves the site and is allowed', () => {
  test.for(controls.map(([name, text]) => ({ name, text })))('$name', async ({ text }, ctx) => {
    const mdx = await importFrom<Mdx>(suite.require(ctx), '@mdx-js/mdx');
    expect(await rendered(mdx, text)).toEqual([]);
    expect(await decide(withMdx, text)).toEqual({ effect: 'allow', why: '' });
  });
});
