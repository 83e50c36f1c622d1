// Cases that only some renderers, run as their users run them, turn live: each is rendered here by every real
// renderer (markdown-differential.ts), the test says which pages are live, and the gate must deny the text as
// markdown under policies/default.yaml; the inert look-alikes stay allowed.
import { describe, expect, test } from 'vitest';
import { findActiveRenderedHtml } from '../../../src/content/svg-html/active-html.ts';
import { decideItem } from '../decide-item.ts';
import { realRenderers } from './markdown-differential.ts';

const img = '<img src=x onerror=alert(1)>';

function liveIn(text: string): string[] {
  return Object.entries(realRenderers)
    .filter(([, render]) => findActiveRenderedHtml(render(text)) !== null)
    .map(([name]) => name);
}

async function effect(text: string): Promise<string> {
  return (await decideItem(Buffer.from(text, 'utf8'), 'text/markdown')).effect;
}

describe('renderers as users run them', () => {
  test.each([
    // a GFM footnote's body is flow content only micromark's footnote extension renders; no `|` or `~` in it
    ['a footnote definition holding html', `a [^1]\n\n[^1]: ${img}`, ['micromark gfm']],
    // a table cell boundary ends a code span for every renderer that reads tables, not for the CommonMark ones
    [
      'a code span split by a table cell',
      `\`a | ${img}\`\n---|---`,
      ['markdown-it default', 'micromark gfm', 'marked'],
    ],
    // markdown-it's commonmark preset stops at its nesting limit (20); the others render the image
    [
      'html inside 25 block quotes',
      `${'> '.repeat(25)}${img}`,
      ['markdown-it default', 'micromark gfm', 'marked', 'commonmark.js'],
    ],
  ])('%s: live in the renderers named, denied by the gate', async (_name, text, renderers) => {
    expect(liveIn(text)).toEqual(renderers);
    expect(await effect(text)).toBe('deny');
  });

  test.each([
    ['a footnote body in a code span', `a [^1]\n\n[^1]: \`${img}\``],
    ['a table cell holding a code span', `| \`${img}\` | b |\n| --- | --- |`],
  ])('%s: live in no renderer, allowed', async (_name, text) => {
    expect(liveIn(text)).toEqual([]);
    expect(await effect(text)).toBe('allow');
  });
});
