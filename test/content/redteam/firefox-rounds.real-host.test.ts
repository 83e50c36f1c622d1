// Hidden rounds 4 and 5 for the browser, with Firefox ESR as the oracle beside Chromium (issue 41 items 1 and 6): each
// attack of the Chromium rounds (browser-round-pages.ts) and each Firefox case (firefox-round-pages.ts) is shown live
// by Firefox itself (a script or handler ran, after a click for link attacks, or the page asked for something off its
// origin by itself) and withheld by the shipped profile under every plausible sending; benign controls load inert in
// Firefox and are allowed. Each attack is judged twice: by the shipped profile, and with every type it is sent as
// allowed, where it must be withheld as active (executable, remote-load, too-complex), not refused for its type.
// Under CI=true a missing Firefox fails the suite (test/helpers/system-firefox.ts).
import { afterAll, describe, expect, type TestContext, test } from 'vitest';
import { type FirefoxTab, openFirefoxTab } from '../../helpers/firefox-page.ts';
import { useFirefox } from '../../helpers/system-firefox.ts';
import { htmlAttacks, htmlSendings, svgAttacks, svgControls, svgSendings } from './browser-round-pages.ts';
import {
  type FirefoxCase,
  firefoxPageAttacks,
  firefoxSvgAttacks,
  firefoxSvgControls,
  firefoxXmlAttacks,
  xmlSendings,
} from './firefox-round-pages.ts';
import { profileGate } from '../consumers/profile-gate.ts';
import { judgeSendings, letThrough, refused, type Sending, type SendingVerdict, sendingsOf } from './judge-variants.ts';

const firefox = useFirefox();
// every type a case is sent as allowed: a sending is held only when the gate withholds it for what it does
const everyType = profileGate(undefined, [
  'text/html',
  'application/xml',
  'text/xml',
  'application/xhtml+xml',
  'application/octet-stream',
]);
const active = /^content\.(executable|remote-load|too-complex)$/;
const notHeldAsActive = (verdicts: readonly SendingVerdict[]): string[] =>
  verdicts
    .filter((v) => v.effect === 'allow' || !v.codes.some((c) => active.test(c)))
    .map((v) => `${v.sending}: ${v.effect} ${v.why}`);
let tab: FirefoxTab | undefined;

afterAll(async () => {
  await tab?.close();
});

// live when a script or handler ran by load (after the click), or, for `leaves`, the page asked off its origin
async function liveInFirefox(ctx: TestContext, { served, body, then, files }: FirefoxCase): Promise<boolean> {
  const browser = firefox.browser;
  if (browser === undefined) return ctx.skip(firefox.skipReason);
  tab ??= await openFirefoxTab(browser);
  const visit = await tab.load({
    served,
    body,
    ...(then === 'leaves' ? { leaves: true } : then === undefined ? {} : { click: then }),
    ...(files === undefined ? {} : { files }),
  });
  return visit.ran || (then === 'leaves' && visit.asked.length > 0);
}

const asCase = ([name, served, body, then]: readonly [string, string, string | Buffer, string?]): FirefoxCase => ({
  name,
  served,
  body,
  ...(then === undefined ? {} : { then }),
});

const bodyOf = (body: string | Buffer) => (typeof body === 'string' ? { text: body } : { blob: body });

const attacks: { name: string; page: FirefoxCase; sendings: Sending[] }[] = [
  ...svgAttacks.map((p) => ({ name: `round: ${p[0]}`, page: asCase(p), sendings: svgSendings })),
  ...htmlAttacks.map((p) => ({ name: `round: ${p[0]}`, page: asCase(p), sendings: htmlSendings })),
  ...firefoxPageAttacks.map((page) => ({ name: page.name, page, sendings: htmlSendings })),
  ...firefoxSvgAttacks.map((page) => ({ name: page.name, page, sendings: svgSendings })),
  ...firefoxXmlAttacks.map((page) => ({ name: page.name, page, sendings: xmlSendings })),
];

describe('Firefox runs each attack, the shipped profile withholds it however it is sent', () => {
  test.for(attacks)('$name', { timeout: 120_000 }, async ({ page, sendings }, ctx) => {
    expect(await liveInFirefox(ctx, page)).toBe(true);
    expect(letThrough(await judgeSendings(bodyOf(page.body), sendings))).toEqual([]);
    expect(notHeldAsActive(await judgeSendings(bodyOf(page.body), sendings, everyType))).toEqual([]);
  });
});

const controlSendings = sendingsOf('guide://art/icon', ['.svg', '.SVG', ''], ['image/svg+xml', undefined]);

describe('Firefox loads each control inert, the shipped profile allows it however it is sent', () => {
  test.for([
    ...svgControls.map((p) => ({ name: `round: ${p[0]}`, page: asCase(p) })),
    ...firefoxSvgControls.map((page) => ({ name: page.name, page })),
  ])('$name', { timeout: 120_000 }, async ({ page }, ctx) => {
    expect(await liveInFirefox(ctx, page)).toBe(false);
    expect(refused(await judgeSendings(bodyOf(page.body), controlSendings))).toEqual([]);
  });
});
