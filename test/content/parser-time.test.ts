// One budget bounds all work (issue 41 item 4): every parser is charged its measured time per character and per
// open element as it reads (parser-nanos.ts), up to `maxParserNanos` for any item, so markup that takes the parsers
// seconds ends as `content.too-complex`; and the renderers' superlinear work is charged by what they may pair
// (markdown-cost.ts), so declaration files the renderers render in a fraction of a second are judged, not withheld.
// Outcomes only: the times are measured by `npm run bench` (bench/content.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { findActiveXml } from '../../src/content/svg-html/active-xml.ts';
import { maxParserNanos, WorkBudget } from '../../src/content/work-budget.ts';
import { decideItem } from './decide-item.ts';

const svgOf = (body: string): Buffer => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`);
// `<g>`s `depth` deep, repeated to about `bytes`
const nestedGroups = (depth: number, bytes: number): string => {
  const one = `${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}`;
  return one.repeat(Math.ceil(bytes / one.length));
};
// a character reference takes the body past the screen in front of the HTML parser, which then reads it too
const referenced = '<text>&#65;</text>';

describe('markup and markdown that take the parsers seconds are withheld', () => {
  test.each([
    ['7 MB of svg nested 250 deep', () => svgOf(nestedGroups(250, 7_000_000)), 'image/svg+xml'],
    [
      '7 MB of svg nested 250 deep, read as html too',
      () => svgOf(referenced + nestedGroups(250, 7_000_000)),
      'image/svg+xml',
    ],
    ['7 MB of flat svg read as xml and as html', () => svgOf(referenced + '<g/>'.repeat(1_750_000)), 'image/svg+xml'],
    [
      '1 MB of markdown for five renderers',
      () => Buffer.from(`an <kbd style="color: teal"> attribute\n${'*a* b '.repeat(170_000)}`),
      'text/markdown',
    ],
  ])(
    '%s',
    async (_name, bytes, mime) => {
      const verdict = await decideItem(bytes(), mime);
      expect(verdict.effect, verdict.messages).toBe('partial');
      expect(verdict.codes).toEqual(['content.too-complex']);
      expect(verdict.messages).toMatch(/parser time/);
    },
    60_000,
  );
});

// declaration files of this project's dependencies declared text/markdown, each withheld as too complex by the
// old delimiter model; every renderer renders each in well under a second (bench/content.ts measures them)
const declarations = [
  '@types/node/net.d.ts',
  '@types/node/dns.d.ts',
  '@types/node/http.d.ts',
  '@types/node/http2.d.ts',
  '@types/node/tls.d.ts',
  '@types/node/stream.d.ts',
  '@types/node/url.d.ts',
  '@types/node/assert.d.ts',
  'hono/dist/types/types.d.ts',
  'zod/v4/core/schemas.d.ts',
  'zod/v3/types.d.ts',
  'json-schema-typed/draft_2020_12.d.ts',
  // `WeakSet<object>` (a bare object loads nothing) and `<Meta = PluginContextMeta>` (no refresh): withheld before
  '@types/node/util.d.ts',
  'vite/dist/node/index.d.ts',
];
const nodeModules = path.resolve(import.meta.dirname, '../../node_modules');

describe('declaration files declared text/markdown are judged, not withheld as too complex', () => {
  test.each(declarations)(
    '%s',
    async (file) => {
      const verdict = await decideItem(readFileSync(path.join(nodeModules, file)), 'text/markdown');
      expect(verdict.codes, verdict.messages).not.toContain('content.too-complex');
      expect(verdict.effect, verdict.messages).toBe('allow');
    },
    60_000,
  );
});

describe('the parser-time bound', () => {
  test('is counted, not read from a clock: past maxParserNanos it throws, whatever the steps allow', () => {
    const budget = WorkBudget.forBytes(1);
    budget.spendTime('html', maxParserNanos);
    expect(() => budget.spendTime('html', 1)).toThrow(/more parser time than any item may \(html\)/);
    expect(budget.spent).toBe(0);
    expect(() => WorkBudget.unlimited().spendTime('html', Number.MAX_SAFE_INTEGER)).not.toThrow();
  });
});

// saxes builds text only where it has a handler, and text is needed only in a `<style>`: the handler is set as a
// `<style>` opens and taken off as it closes (an 8 MiB icon sheet read in half the time), so a stylesheet's text is
// still read whole, however it is written, and text outside one is not read as css
describe('an svg `<style>` is read as css wherever its text stands', () => {
  const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg"><text>a</text>${body}<text>b</text></svg>`;
  test.each([
    ['plain text', '<style>a{background:url(javascript:alert(1))}</style>'],
    ['a CDATA section', '<style><![CDATA[a{background:url(javascript:alert(1))}]]></style>'],
    ['a character reference', '<style>a{background:url(javas&#99;ript:alert(1))}</style>'],
    ['text of an element inside it', '<style><g>a{background:url(javascript:alert(1))}</g></style>'],
    ['text after an element inside it', '<style><g/>a{background:url(javascript:alert(1))}</style>'],
  ])('%s', (_name, body) => {
    expect(findActiveXml(svg(body), 'svg').active).toMatch(/`javascript:` url in css in a `<style>` element/);
  });

  test('text after a closed `<style>` is not css', () => {
    expect(findActiveXml(svg('<style>a{}</style><text>url(javascript:alert(1))</text>'), 'svg').active).toBeNull();
  });
});
