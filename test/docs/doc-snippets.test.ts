// The snippet extraction the docs' snippet test (doc-snippets.real-host.test.ts) compiles from: info strings, the
// fragments' merged modules and the 2.x rewrite, on pages written here and on the real pages.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { extractSnippets, snippetModule, withSdk2Imports } from './doc-snippets.ts';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'linkgate-doc-snippets-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function pages(readme: string, docs: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(scratch, 'page-'));
  mkdirSync(path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'README.md'), readme);
  for (const [name, text] of Object.entries(docs)) writeFileSync(path.join(dir, 'docs', name), text);
  return dir;
}

describe('docs snippets', () => {
  test('every ts fence is a snippet; info words and example markers name and mark it', () => {
    const dir = pages(
      [
        '<!-- example:host (runs) -->',
        '```ts run',
        "import { a } from 'x';",
        'const h = a();',
        '```',
        '```sh',
        'npm test',
        '```',
        '```typescript id=more with=host sdk=1',
        "import { a, b } from 'x';",
        'const h = b(a());',
        '```',
      ].join('\n'),
      { 'a.md': '```ts\nconst z = 1;\n```\n' },
    );
    const found = extractSnippets(dir);
    expect(found.map((s) => [s.where, s.id, s.with, s.run, s.sdkOnly])).toEqual([
      ['README.md:2', 'host', [], true, undefined],
      ['README.md:9', 'more', ['host'], false, 1],
      ['docs/a.md:1', undefined, [], false, undefined],
    ]);
    // a fragment: the snippets it continues first, imports merged once, its own code in a block (so `h` may be declared again)
    const module = snippetModule(found[1] as (typeof found)[number], found);
    expect(module).toBe("import { a, b } from 'x';\nconst h = a();\n{\nconst h = b(a());\n}\nexport {};");
  });

  test('a fragment naming no snippet of its page, or a fence that never closes, is an error', () => {
    const dangling = extractSnippets(pages('```ts with=nothing\nx;\n```\n'));
    expect(() => snippetModule(dangling[0] as (typeof dangling)[number], dangling)).toThrow(/names no snippet/);
    expect(() => extractSnippets(pages('```ts\nx;\n'))).toThrow(/never closes/);
  });

  test('the 2.x rewrite maps each 1.x client import to the 2.x package, as the README says', () => {
    const code = [
      "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
      "import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';",
      "import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
    ].join('\n');
    expect(withSdk2Imports(code)).toBe(
      [
        "import { Client } from '@modelcontextprotocol/client';",
        "import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';",
        "import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
      ].join('\n'),
    );
  });

  test('the real pages: every fragment resolves, and the host example and the framework recipes run', () => {
    const found = extractSnippets(root);
    for (const s of found) expect(() => snippetModule(s, found)).not.toThrow();
    expect(found.filter((s) => s.run).map((s) => s.file)).toEqual([
      'README.md',
      ...Array<string>(found.filter((s) => s.run).length - 1).fill('docs/frameworks.md'),
    ]);
    expect(found.find((s) => s.id === 'host')?.run).toBe(true);
  });
});
