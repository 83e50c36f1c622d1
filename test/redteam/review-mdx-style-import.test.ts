// Review of cbe5a28 (css `@import` withheld as `content.remote-load`) against the MDX consumer (opt-in `mdx`): a JSX
// `<style>` renders its text children as the element's css (React writes a text child as is), so a page's
// `<style>@import url(…)</style>`, or the same css as a literal expression `<style>{"@import url(…)"}</style>`
// (allowed as inert since 7abbefc), makes the browser fetch the stylesheet. mdx-compiler.ts judges a JSX element by its
// name and attributes only, never its children's text; now a `style` element's text and literal children are read as
// its css (mdx-compiler.real-host.test.ts confirms the real compiler renders the import).
import { describe, expect, it } from 'vitest';
import { profileGate } from '../content/consumers/profile-gate.ts';
import { judgeSendings, letThrough, refused } from '../content/redteam/judge-variants.ts';

const gate = profileGate(['mdx']);
const sendings = [['guide://docs/page.mdx', 'text/markdown']] as const;

describe('mdx: a css @import in a jsx <style>', () => {
  it.each([
    ['as text', '# T\n\n<style>@import url(https://evil.example/x.css);</style>\n'],
    ['as a literal expression', '# T\n\n<style>{"@import url(https://evil.example/x.css);"}</style>\n'],
  ])('%s is withheld as a remote load', async (_name, text) => {
    expect(letThrough(await judgeSendings({ text }, sendings, gate))).toEqual([]);
  });

  it('control: a literal expression in prose is allowed', async () => {
    expect(refused(await judgeSendings({ text: '# T\n\nVersion {"1.2.3"}\n' }, sendings, gate))).toEqual([]);
  });
});
