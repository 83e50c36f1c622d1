// Red team round 10 for parse cost (issue 41 item 4): a handler behind the shapes whose tree building costs more than
// their size in a parser that follows the HTML standard (the open-element stack walked for every `</p>` under
// 60 000 nested divs, the adoption agency over 20 000 formatting elements, foster parenting 2 MB of text in a table,
// 20 000 unmatched end tags in svg content: Chromium itself takes a minute over 60 000) and XML whose prefixes resolve
// through 250 nested namespace scopes or
// whose root declares 40 000 namespaces. Chromium is the oracle for the handlers (it runs each); the gate, with the
// page's type admitted, must withhold each (as active or too complex, never allow), and answer every XML shape within
// its budget (allowed or too complex). The CPU time of the slowest judgement is printed (no timed assertion). A case
// that gets through is a `test.fails` named in `open` (the round's findings in its session's closing note). Under CI=true a missing
// Chromium fails.
import { afterAll, describe, expect, test, type TestContext } from 'vitest';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { profileGate } from '../consumers/profile-gate.ts';
import { judgeSendings, letThrough, sendingsOf } from './judge-variants.ts';

const chromium = useChromium();
const svgNs = 'http://www.w3.org/2000/svg';
const handler = '<img src=x onerror="fetch(\'http://ran.test/\')">';
const withHtml = profileGate(undefined, ['text/html']);

// whether Chromium, loading `body` as html, ran the handler (the test's timeout bounds the wait)
async function runsInChromium(ctx: TestContext, body: string): Promise<boolean> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    const ran = page.waitForRequest('http://ran.test/', { timeout: 0 }).then(() => true);
    await page.route('**/*', (route) =>
      route.request().url() === 'http://cost.test/'
        ? route.fulfill({ contentType: 'text/html', body })
        : route.fulfill({ status: 404, body: '' }),
    );
    await page.goto('http://cost.test/', { waitUntil: 'commit' });
    return await ran;
  } finally {
    await page.close();
  }
}

const htmlAttacks: [string, string, string][] = [
  [
    'cost-p-under-divs',
    'a handler after 60 000 `</p>` under 60 000 nested divs',
    `${'<div>'.repeat(60_000)}${'</p>'.repeat(60_000)}${handler}`,
  ],
  [
    'cost-adoption',
    'a handler after the adoption agency over 20 000 formatting elements',
    `${'<b><i><u><s>'.repeat(20_000)}<p>${'</b>'.repeat(20_000)}${handler}`,
  ],
  [
    'cost-foster',
    'a handler after 2 MB of text foster-parented out of a table',
    `<table>${'a'.repeat(2_000_000)}${handler}`,
  ],
  [
    'cost-svg-end-tags',
    'a handler after 20 000 unmatched end tags in svg content',
    `<svg>${'<g>'.repeat(20_000)}${'</x>'.repeat(20_000)}</svg>${handler}`,
  ],
];

const scopes = (depth: number): string =>
  Array.from({ length: depth }, (_, i) => `<g xmlns:p${i}="urn:x-${i}">`).join('');
const xmlShapes: [string, string, string][] = [
  [
    'cost-ns-scopes',
    '200 000 prefixed elements under 250 nested namespace scopes',
    `<svg xmlns="${svgNs}">${scopes(250)}${'<p0:x/>'.repeat(200_000)}${'</g>'.repeat(250)}</svg>`,
  ],
  [
    'cost-ns-decls',
    'a root declaring 40 000 namespaces',
    `<svg xmlns="${svgNs}" ${Array.from({ length: 40_000 }, (_, i) => `xmlns:n${i}="urn:x-${i}"`).join(' ')}><rect/></svg>`,
  ],
];

/** Cases that get through at the time of writing (named in the round's findings in its session's closing note). */
const open = new Set<string>([]);

let slowest = { key: '', ms: 0 };
async function judged(key: string, body: string, sendings: Parameters<typeof judgeSendings>[1], gate = withHtml) {
  const before = process.cpuUsage();
  const verdicts = await judgeSendings({ text: body }, sendings, gate);
  const used = process.cpuUsage(before);
  const ms = (used.user + used.system) / 1000;
  if (ms > slowest.ms) slowest = { key, ms };
  return verdicts;
}

describe('round 10: Chromium runs the handler behind each cost', () => {
  test.for(htmlAttacks.map(([key, name, body]) => ({ key, name, body })))(
    '$key: $name',
    { timeout: 180_000 },
    async ({ body }, ctx) => {
      expect(await runsInChromium(ctx, body)).toBe(true);
    },
  );
});

describe('round 10: the gate with text/html admitted withholds each, however it is sent', () => {
  for (const [key, name, body] of htmlAttacks)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, { timeout: 180_000 }, async () => {
      const sendings = sendingsOf('guide://site/page', ['.html', ''], ['text/html', 'text/plain', undefined]);
      expect(letThrough(await judged(key, body, sendings))).toEqual([]);
    });
});

describe('round 10: each xml shape is answered within its budget: allowed or too complex', () => {
  for (const [key, name, body] of xmlShapes)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, { timeout: 180_000 }, async () => {
      const sendings = sendingsOf('guide://art/map', ['.svg', ''], ['image/svg+xml', undefined]);
      for (const verdict of await judged(key, body, sendings, profileGate()))
        expect(
          verdict.effect === 'allow' || verdict.codes.every((c) => c === 'content.too-complex'),
          `${verdict.sending}: ${verdict.effect} ${verdict.why}`,
        ).toBe(true);
    });
  // printed, never asserted (speed is the bench's): after the suite, not as a test that cannot fail
  afterAll(() => {
    console.log(`round10-cost: slowest judgement ${slowest.key} ${slowest.ms.toFixed(0)} ms cpu`);
  });
});
