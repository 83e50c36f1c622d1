// When the browser consumer reads text as a page, against Chromium's own MIME sniffing (issue 41 item 5): each body
// is served by a real HTTP server with no Content-Type (or as text/plain or application/octet-stream) and opened in the system Chromium, which
// says what it took the body for (`document.contentType`) and whether its script ran. The gate reads as a page every
// body Chromium does, and more only where the body opens with a tag (Firefox's wider list, and the gate's margin);
// prose first is text to both. Under CI=true a missing Chromium fails the suite (chromium-suite.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { opensAsPage } from '../../../src/content/consumers/html-signature.ts';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { profileGate } from './profile-gate.ts';

const chromium = useChromium();
const ran = 'window.__ran=1';
const howTo = `# Embedding\n\n\`\`\`html\n<script>${ran}</script>\n\`\`\`\n\nAvoid \`<img src=x onerror=alert(1)>\`.\n`;

// name, body, what Chromium takes it for untyped, and what the gate does ('page': read raw as HTML)
const bodies: [name: string, body: string, chromium: 'html' | 'text', gate: 'page' | 'text'][] = [
  ['a markdown how-to with a fenced script', howTo, 'text', 'text'],
  ['a script first', `<script>${ran}</script><p>x</p>`, 'html', 'page'],
  ['a doctype first', `<!doctype html><p>x</p><script>${ran}</script>`, 'html', 'page'],
  ['an uppercase script after white space', ` \r\n\t<SCRIPT>${ran}</SCRIPT>`, 'html', 'page'],
  ['a paragraph then a handler', `<p>Hi</p><img src=x onerror="${ran}">`, 'html', 'page'],
  ['a bold word then a handler', `<b>Hi</b><img src=x onerror="${ran}">`, 'html', 'page'],
  ['a link with attributes', `<a href="x">x</a><img src=x onerror="${ran}">`, 'html', 'page'],
  ['a comment first', `<!-- page --><img src=x onerror="${ran}">`, 'html', 'page'],
  // Chromium matches a prefix: no tag-terminating byte needed (the standard asks for one)
  ['a self-closed br', `<br/><img src=x onerror="${ran}">`, 'html', 'page'],
  ['a longer tag name', `<scripts>${ran}</scripts><img src=x onerror="${ran}">`, 'html', 'page'],
  ['a blockquote (a `<b` prefix)', `<blockquote>x</blockquote><img src=x onerror="${ran}">`, 'html', 'page'],
  ['prose then a handler', `Hello <img src=x onerror="${ran}">`, 'text', 'text'],
  ['a heading then a script', `# Notes\n\n<script>${ran}</script>`, 'text', 'text'],
  ['a less-than sign in prose', `< 3 items <img src=x onerror="${ran}">`, 'text', 'text'],
  // Firefox sniffs these (`<img `, `<meta `, any `<?`), the gate takes any tag
  ['a handler first', `<img src=x onerror="${ran}">`, 'text', 'page'],
  ['a meta refresh first', '<meta http-equiv="refresh" content="0;url=http://evil.test/">', 'text', 'page'],
  ['a processing instruction', `<?php echo 1; ?><img src=x onerror="${ran}">`, 'text', 'page'],
  ['an unlisted tag', `<section>x</section><img src=x onerror="${ran}">`, 'text', 'page'],
];

let server: Server;
let origin = '';
const served = new Map<string, { type: string | undefined; body: string }>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = served.get(req.url ?? '');
    if (page === undefined) {
      res.writeHead(404).end();
      return;
    }
    // no Content-Type header at all for an untyped body: Chromium sniffs it
    res.writeHead(200, page.type === undefined ? {} : { 'content-type': page.type });
    res.end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// what Chromium made of `body` served as `type` (undefined: no Content-Type): its document type and whether it ran
async function open(ctx: TestContext, body: string, type: string | undefined) {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const key = `/page-${served.size}`;
  served.set(key, { type, body });
  const page = await browser.newPage();
  try {
    // nothing off the test server loads: a sniffed page's refresh or image stays on it
    await page.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => route.fulfill({ status: 404, body: '' }));
    const opened = await page.goto(`${origin}${key}`, { waitUntil: 'load' }).then(
      () => 'shown' as const,
      // a body Chromium saves instead of showing: nothing of it is rendered
      (error: Error) => {
        if (/Download is starting/.test(error.message)) return 'downloaded' as const;
        throw error;
      },
    );
    if (opened === 'downloaded') return { html: false, ran: false, downloaded: true };
    const contentType = String(await page.evaluate('document.contentType'));
    const didRun = (await page.evaluate('window.__ran === 1')) === true;
    return { html: contentType === 'text/html', ran: didRun, downloaded: false };
  } finally {
    await page.close();
  }
}

describe('untyped text: Chromium sniffs a page by its first bytes, the gate by as much or more', () => {
  test.for(bodies.map(([name, body, want, gate]) => ({ name, body, want, gate })))(
    '$name',
    { timeout: 120_000 },
    async ({ body, want, gate }, ctx) => {
      const seen = await open(ctx, body, undefined);
      expect(seen.html).toBe(want === 'html');
      expect(opensAsPage(Buffer.from(body))).toBe(gate === 'page');
    },
  );
});

describe('text declared text/plain: Chromium never sniffs it as a page', () => {
  test.for(bodies.map(([name, body]) => ({ name, body })))('$name', { timeout: 120_000 }, async ({ body }, ctx) => {
    expect(await open(ctx, body, 'text/plain')).toEqual({ html: false, ran: false, downloaded: false });
  });
});

// the gate reads octet-stream text as it reads text/plain (browser.ts): a page only when it opens with a tag
describe('text declared application/octet-stream: Chromium downloads it, never shows it as a page', () => {
  test.for(bodies.map(([name, body]) => ({ name, body })))('$name', { timeout: 120_000 }, async ({ body }, ctx) => {
    expect(await open(ctx, body, 'application/octet-stream')).toEqual({ html: false, ran: false, downloaded: true });
  });
});

const shipped = profileGate();
const browserOnly = profileGate(['browser']);

// the effect and reasons of reading `text` at `uri`, declared `type` (undefined: untyped)
async function decide(gate: ReturnType<typeof profileGate>, uri: string, type: string | undefined, text: string) {
  const typed = type === undefined ? {} : { mimeType: type };
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: 'page', ...typed },
    result: { resultType: 'complete', contents: [{ uri, text, ...typed }] },
  });
  return { effect: decision.effect, reasons: decision.reasons.map((r) => `${r.code}: ${r.message}`) };
}

test('a markdown how-to with a fenced script is text to Chromium untyped and as text/plain, and allowed', async (ctx) => {
  expect(await open(ctx, howTo, undefined)).toEqual({ html: false, ran: false, downloaded: false });
  expect(await open(ctx, howTo, 'text/plain')).toEqual({ html: false, ran: false, downloaded: false });
  for (const uri of ['guide://docs/howto.md', 'guide://docs/howto.txt', 'guide://docs/howto'])
    for (const type of [undefined, 'text/plain'])
      expect([uri, type, await decide(shipped, uri, type, howTo)]).toEqual([
        uri,
        type,
        { effect: 'allow', reasons: [] },
      ]);
});

test('untyped text Chromium runs as a page is withheld by the browser alone', async (ctx) => {
  const pages = bodies.filter(([, body, want]) => want === 'html' && body.includes('onerror'));
  expect(pages.length).toBeGreaterThan(3);
  for (const [, body] of pages) {
    expect(await open(ctx, body, undefined)).toEqual({ html: true, ran: true, downloaded: false });
    for (const uri of ['guide://docs/page.txt', 'guide://docs/page'])
      expect((await decide(browserOnly, uri, undefined, body)).reasons.join('; '), body).toMatch(
        /^content\.executable: /,
      );
  }
});
