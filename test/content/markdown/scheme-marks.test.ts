// The markdown screen counts a `data:` scheme only where a url's scheme may start with it, and markdown's `\:` only
// as `\:`. A changelog names `KeyObjectData::New`, `ICU\_DATA\_OVERRIDE` and `` `data:` `` urls in code on lines
// that link commits: a url parser reads the first as the scheme `keyobjectdata`, the second holds no `:` after `data`
// (markdown unescapes `\_`, not a scheme), the third starts with a backtick (no scheme). Node's own changelogs
// (/usr/share/doc/nodejs/changelogs, 0.7–0.8 MB) were withheld as too complex for the renderers' time those lines
// bought. The oracle is every real renderer: the same lines render to no live page, and a real `data:` destination,
// escaped or split as renderers and the url parser read it, is still screened in.
import { describe, expect, test } from 'vitest';
import { mayHoldActiveMarkdown } from '../../../src/content/markdown/markdown-screen.ts';
import { findActiveMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { judgeSendings, refused } from '../redteam/judge-variants.ts';

const commit = (n: number, text: string): string =>
  `* \\[[\`${n.toString(16).padStart(10, '0')}\`](https://github.com/nodejs/node/commit/${n.toString(16)})] - ${text} (A. Person) [#${n}](https://github.com/nodejs/node/pull/${n})`;
const inert = [
  '**src**: remove KeyObjectData::symmetric\\_key\\_len\\_',
  '**src**: skip revoke\\_data\\_object if uuid is not found',
  '**build**: build ICU with ICU\\_NO\\_USER\\_DATA\\_OVERRIDE',
  '**esm**: improve error when calling `import.meta.resolve` from `data:` URL',
  '**src**: use MetaData:x and x-data:y and x.data:z',
];

describe('a data: scheme where a scheme may start', () => {
  test.for(inert)('%s is text to the screen and to every renderer', (line) => {
    const text = commit(1, line);
    expect(mayHoldActiveMarkdown(text)).toBe(false);
    expect(findActiveMarkdown(text)).toBeNull();
  });

  test.for([
    '[a](data:text/html,<script>x</script>)',
    '[a](\ndata:text/html,x)',
    '[a](data\\:text/html,x)',
    '<a href="da\nta:text/html,x">a</a>',
    '<a href="x\ndata:text/html,x">a</a> <a href="\ndata:text/html,y">b</a>',
    '[a]: data:text/html,x\n\n[a]',
    '[a](<data:text/html,x>)',
    '<a href="data:text/html,x">a</a>',
    "<a href='x'>b</a> [c](https://e.example) [d](data:text/html,x)",
  ])('%s is screened in and found', (text) => {
    expect(mayHoldActiveMarkdown(text)).toBe(true);
    expect(findActiveMarkdown(text)).toMatch(/data:/);
  });

  test('a changelog of such lines is allowed whole', async () => {
    const lines: string[] = ['# Changelog', ''];
    for (let n = 0; lines.join('\n').length < 700_000; n++) lines.push(commit(n + 1, inert[n % inert.length] ?? ''));
    const text = `${lines.join('\n')}\n`;
    const verdicts = await judgeSendings({ text }, [
      ['guide://doc/CHANGELOG.md', 'text/markdown'],
      ['guide://doc/CHANGELOG.md', 'text/plain'],
    ]);
    expect(refused(verdicts)).toEqual([]);
  });
});
