// Review of cbe5a28 (css `@import` withheld as `content.remote-load`): the check runs only where the browser reads a
// body as a page (html, svg, text opening with a tag). Markdown passes raw html through, so a markdown page's
// `<style>@import url(…)</style>` reaches the browser that shows the rendered page, which fetches the stylesheet as
// it would from an html page; the markdown renderers did not look for it. Now each rendered page is read for it (not
// the raw text, so that a fenced `<style>` in a how-to stays allowed).
import { describe, expect, it } from 'vitest';
import { judgeSendings, letThrough, refused } from '../content/redteam/judge-variants.ts';

const page = (html: string) => `# Notes\n\n${html}\n\nSome text.\n`;
const sendings = [
  ['guide://docs/notes.md', 'text/markdown'],
  ['guide://docs/notes.md', undefined],
] as const;

describe('a css @import in a markdown page', () => {
  it('raw html `<style>@import …</style>` is withheld as a remote load', async () => {
    const body = page('<style>@import url(https://evil.example/x.css);</style>');
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });

  it('control: the same `<style>` in a fenced code block is allowed', async () => {
    const body = page('```html\n<style>@import url(https://evil.example/x.css);</style>\n```');
    expect(refused(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });
});
