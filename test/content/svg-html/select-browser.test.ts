// Elements a current browser keeps where parse5 drops them: Chromium's customizable `<select>` (2025) keeps `img`,
// `svg`, `a`, `button`… inside a `<select>`, where parse5 8 follows the old in-select insertion mode and drops
// them from its tree. Each case is opened in a real headless Chromium (the system's, driven by playwright-core)
// and its handler runs; parse5's tree holds no such element; the gate, which inspects every start tag the
// tokenizer emits, denies each.
import { parse } from 'parse5';
import { describe, expect, test } from 'vitest';
import { findActiveHtml } from '../../../src/content/svg-html/active-html.ts';
import { useChromium } from './chromium-suite.ts';
import { decideItem } from '../decide-item.ts';

const chromium = useChromium();

const ran = "document.title='ran'";
const cases: [string, string, string][] = [
  ['an image', `<select><img src=x onerror="${ran}"></select>`, 'img'],
  ['an svg', `<select><svg onload="${ran}"></svg></select>`, 'svg'],
  ['a video', `<select><video src=x onerror="${ran}"></video></select>`, 'video'],
];

// true when parse5's tree holds an element named `name` anywhere
function parse5Keeps(html: string, name: string): boolean {
  const stack: unknown[] = [parse(html)];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const n = node as { nodeName?: string; childNodes?: unknown[] };
    if (n.nodeName === name) return true;
    stack.push(...(n.childNodes ?? []));
  }
  return false;
}

describe('start tags inside <select>', () => {
  test.for(cases)('%s: Chromium runs its handler, parse5 drops it, the gate denies', async ([, html, name], ctx) => {
    expect(parse5Keeps(html, name)).toBe(false);
    expect(findActiveHtml(html)).toMatch(/event-handler attribute/);
    const verdict = await decideItem(Buffer.from(html, 'utf8'), 'text/html');
    expect(verdict.codes).toContain('content.executable');
    const browser = chromium.browser();
    if (browser === undefined) return ctx.skip(chromium.skipReason());
    const page = await browser.newPage();
    try {
      await page.setContent(`<!doctype html><title>t</title>${html}`);
      // waits for the handler's effect; the ceiling only fails a browser that never runs it
      await page.waitForFunction("document.title === 'ran'", undefined, { timeout: 10_000 });
    } finally {
      await page.close();
    }
  });

  test('an option list without handlers stays allowed', async () => {
    const html = '<select><option>a</option><option selected>b</option></select>';
    expect(findActiveHtml(html)).toBeNull();
    expect((await decideItem(Buffer.from(html, 'utf8'), 'text/html')).codes).not.toContain('content.executable');
  });
});
