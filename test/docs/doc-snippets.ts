// The TypeScript snippets of README.md and docs/*.md, as a user pastes them. Every `ts` fence is a snippet; words
// after the language in its info string say how it is checked:
//   id=NAME     names it (a block after an `<!-- example:NAME -->` marker is named NAME too)
//   with=A,B    a fragment that continues the named snippets of the same page: their code comes first, its own
//               statements run in a block of their own (so it may declare a name again), imports merged
//   run         also run it, offline, in the scratch project (exit 0)
//   sdk=1       only with `@modelcontextprotocol/sdk` 1.x (it names 1.x-only API); by default a snippet is checked
//               with 1.x and again with `@modelcontextprotocol/client` 2.x, its 1.x imports rewritten as the README says
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One snippet: where it is, how it is checked and its code as written. */
export interface DocSnippet {
  /** `README.md:167`: the page and the line of the fence */
  where: string;
  file: string;
  id: string | undefined;
  with: string[];
  run: boolean;
  sdkOnly: 1 | undefined;
  code: string;
}

/** The pages whose snippets are checked: README.md and every page of docs/. */
export function snippetPages(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

/** Every `ts`/`typescript` fence of the pages, in order. */
export function extractSnippets(root: string): DocSnippet[] {
  const out: DocSnippet[] = [];
  for (const file of snippetPages(root)) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      const open = /^```(ts|typescript)(?:\s+(.*))?$/.exec(lines[i] as string);
      if (open === null) continue;
      const words = (open[2] ?? '').trim().split(/\s+/).filter(Boolean);
      const word = (key: string) => words.find((w) => w.startsWith(`${key}=`))?.slice(key.length + 1);
      const marker = /^<!-- example:([\w-]+)/.exec((lines[i - 1] ?? '').trim());
      const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
      if (end === -1) throw new Error(`${file}:${i + 1}: a ts fence that never closes`);
      const sdk = word('sdk');
      out.push({
        where: `${file}:${i + 1}`,
        file,
        id: word('id') ?? marker?.[1],
        with: word('with')?.split(',') ?? [],
        run: words.includes('run'),
        sdkOnly: sdk === '1' ? 1 : undefined,
        code: lines.slice(i + 1, end).join('\n'),
      });
      i = end;
    }
  }
  return out;
}

/** The module a snippet compiles as: the snippets it continues first, imports merged at the top. */
export function snippetModule(snippet: DocSnippet, all: readonly DocSnippet[]): string {
  const parts = snippet.with.map((id) => {
    const found = all.find((s) => s.file === snippet.file && s.id === id);
    if (found === undefined) throw new Error(`${snippet.where}: \`with=${id}\` names no snippet of ${snippet.file}`);
    return found;
  });
  if (parts.length === 0) return snippet.code;
  const imports = new Map<string, Set<string>>();
  const bodies = [...parts, snippet].map((s) => splitImports(s.code, imports));
  const head = [...imports].map(([from, names]) =>
    names.has('') ? `import '${from}';` : `import { ${[...names].join(', ')} } from '${from}';`,
  );
  // earlier snippets as written; this one in a block of its own, so it may use a name again
  return [...head, ...bodies.slice(0, -1), `{\n${bodies.at(-1)}\n}`, 'export {};'].join('\n');
}

// takes the `import { a, b } from 'x';` lines out of `code` into `imports` (module → names); returns the rest
function splitImports(code: string, imports: Map<string, Set<string>>): string {
  const rest: string[] = [];
  for (const line of code.split('\n')) {
    const named = /^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)';\s*$/.exec(line);
    const bare = /^import\s+'([^']+)';\s*$/.exec(line);
    if (named !== null) {
      const names = imports.get(named[2] as string) ?? new Set<string>();
      for (const n of (named[1] as string).split(',').map((x) => x.trim())) if (n !== '') names.add(n);
      imports.set(named[2] as string, names);
    } else if (bare !== null) imports.set(bare[1] as string, imports.get(bare[1] as string) ?? new Set(['']));
    else rest.push(line);
  }
  return rest.join('\n');
}

/** The same code with SDK 1.x client imports as 2.x names them (README: "The same code runs with SDK 2.x"). */
export function withSdk2Imports(code: string): string {
  return code
    .replaceAll("'@modelcontextprotocol/sdk/client/index.js'", "'@modelcontextprotocol/client'")
    .replaceAll("'@modelcontextprotocol/sdk/client/stdio.js'", "'@modelcontextprotocol/client/stdio'")
    .replaceAll("'@modelcontextprotocol/sdk/client/streamableHttp.js'", "'@modelcontextprotocol/client'");
}
