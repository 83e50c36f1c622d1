// Hidden round 5's XML/SVG nesting cost rebuilt (issue 41): documents whose parse cost grows with depth × elements,
// and script hidden behind that cost. Each script case is shown live by Chromium (its script ran) and withheld by the
// shipped profile; each cost case is answered within the item's work budget (allowed, or withheld as too complex,
// never anything else). No timed assertion: the budget counts work, not time.
import { describe, expect, type TestContext, test } from 'vitest';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { judgeSendings, letThrough, sendingsOf } from './judge-variants.ts';

const chromium = useChromium();
const svgNs = 'http://www.w3.org/2000/svg';
const ran = 'window.__ran=1';
const groups = (depth: number, inner = ''): string => `${'<g>'.repeat(depth)}${inner}${'</g>'.repeat(depth)}`;
const svg = (body: string, prolog = ''): string => `${prolog}<svg xmlns="${svgNs}">${body}</svg>`;

const sendings = sendingsOf('guide://art/map', ['.svg', ''], ['image/svg+xml', 'text/plain', undefined]);
// a costly document is sent as what it is (declared text/plain, an svg is refused as a mime mismatch anyway)
const svgSendings = sendingsOf('guide://art/map', ['.svg', '.SVG', ''], ['image/svg+xml', undefined]);

const scripted: [string, string][] = [
  ['a script after 3 MB of groups nested 200 deep', svg(`${groups(200).repeat(1700)}<script>${ran}</script>`)],
  [
    'a script at depth 200 after 1 MB of groups',
    svg(`${groups(200).repeat(570)}${groups(200, `<script>${ran}</script>`)}`),
  ],
];

// name, body: no script anywhere; the answer is allow or too complex
const costly: [string, string][] = [
  ['7 MB of groups nested 250 deep', svg(groups(250).repeat(3200))],
  ['groups nested just under the depth cap', svg(groups(254))],
  ['4 MB of flat groups', svg('<g/>'.repeat(1_000_000))],
];

// entity expansion a reader must refuse: withheld. Chromium given the quadratic blowup as image/svg+xml had not
// fired `load` after 30 s on this machine (not asserted: the oracle here would be a timer); its 60 KB internal subset
// hid the svg root past the classifier's head, so it passed undeclared until text-kind read the prolog as xml
const expanding: [string, string][] = [
  [
    'a billion laughs',
    svg(
      '<text>&l9;</text>',
      `<!DOCTYPE svg [<!ENTITY l0 "ha">${Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('')}]>`,
    ),
  ],
  [
    'a quadratic blowup',
    svg(
      '<text>&big;&big;&big;&big;&big;&big;&big;&big;</text>'.repeat(2000),
      `<!DOCTYPE svg [<!ENTITY big "${'x'.repeat(60_000)}">]>`,
    ),
  ],
];

async function runsInChromium(ctx: TestContext, body: string): Promise<boolean> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    await page.route('**/*', (route) =>
      route.request().url() === 'http://svg.test/'
        ? route.fulfill({ contentType: 'image/svg+xml', body })
        : route.fulfill({ status: 404, body: '' }),
    );
    await page.goto('http://svg.test/', { waitUntil: 'load' });
    return (await page.evaluate('window.__ran === 1')) === true;
  } finally {
    await page.close();
  }
}

describe('Chromium runs the script behind each cost, the shipped profile withholds it', () => {
  test.for(scripted.map(([name, body]) => ({ name, body })))('$name', { timeout: 180_000 }, async ({ body }, ctx) => {
    expect(await runsInChromium(ctx, body)).toBe(true);
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });
});

describe('each entity expansion is withheld', () => {
  test.for(expanding.map(([name, body]) => ({ name, body })))('$name', { timeout: 180_000 }, async ({ body }) => {
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });
});

describe('each costly document is answered within its budget: allowed or too complex', () => {
  test.for(costly.map(([name, body]) => ({ name, body })))('$name', { timeout: 180_000 }, async ({ body }) => {
    for (const verdict of await judgeSendings({ text: body }, svgSendings))
      expect(
        verdict.effect === 'allow' || verdict.codes.every((c) => c === 'content.too-complex'),
        `${verdict.sending}: ${verdict.effect} ${verdict.why}`,
      ).toBe(true);
  });
});
