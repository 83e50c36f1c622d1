// The library's cold start (issue 42; docs/speed.md "The library's cold start"): `import('linkgate')` resolves, through
// the package's own `exports`, to the esbuild bundle in dist/lib, where zod, yaml and ipaddr.js are inlined: import,
// parse a policy and decide one link loads a dozen files, not the ~350 modules of the tsc entry (zod's 95, yaml's 73).
// The guard builds the bundle with the shipped options into a scratch package (this package.json, nothing else of
// dist/), runs that sequence by the package's name with every loaded module recorded (record-loads.mjs), and maps
// each loaded chunk to its sources through esbuild's metafile.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/cli-build-options.ts';
import { libraryBuildOptions, libraryDir, libraryEntries } from '../../scripts/library-build-options.ts';

const recorder = fileURLToPath(new URL('./record-loads.mjs', import.meta.url));
let scratch: string;
let metafile: Metafile;

beforeAll(async () => {
  // inside the repository's node_modules, as an installed package is: its runtime `require`s resolve from there
  const cacheRoot = path.join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cacheRoot, { recursive: true });
  scratch = mkdtempSync(path.join(cacheRoot, 'linkgate-library-loads-'));
  copyFileSync(path.join(repoRoot, 'package.json'), path.join(scratch, 'package.json'));
  ({ metafile } = await build({
    ...libraryBuildOptions(path.join(scratch, libraryDir)),
    metafile: true,
    logLevel: 'error',
  }));
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const normalise = (source: string) => source.replace(/^(?:\.\.\/)*(?:[^/]+\/)*?node_modules\//, 'node_modules/');

/** Runs `body` (an ES module) inside the scratch package, where `linkgate` is this package; every loaded module. */
function loadsOf(body: string): { files: string[]; stdout: string } {
  const loadsFile = path.join(scratch, `loads-${Math.random().toString(36).slice(2)}.txt`);
  const script = path.join(scratch, `run-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(loadsFile, '');
  writeFileSync(script, body);
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(recorder).href, script], {
    encoding: 'utf8',
    cwd: repoRoot,
    env: { ...process.env, LINKGATE_LOADS_FILE: loadsFile },
  });
  expect(r.status, r.stderr).toBe(0);
  const files = readFileSync(loadsFile, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('node:') && l !== pathToFileURL(script).href)
    .map((l) => (l.startsWith('file:') ? fileURLToPath(l) : l));
  return { files, stdout: r.stdout };
}

const policy = path.join(repoRoot, 'policies', 'default.yaml');
const firstDecision = `
  const { createGate, parsePolicy } = await import('linkgate');
  const { readFileSync } = await import('node:fs');
  const gate = createGate(parsePolicy(readFileSync(${JSON.stringify(policy)}, 'utf8'), 'policy.yaml'));
  const link = { type: 'resource_link', uri: 'https://docs.example.com/a', name: 'a' };
  console.log(gate.decideLink({ stage: 'link', server: 'docs', link }).effect);
`;

describe('the library entry: import, parse a policy, first link decision', () => {
  it('every JavaScript subpath the library exports is a bundled entry (not dist/index.js)', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      main: string;
      exports: Record<string, string | { types?: string; default?: string }>;
    };
    expect(pkg.main).toBe(`${libraryDir}/index.js`);
    expect(Object.keys(libraryEntries()).sort()).toEqual(
      [
        'index',
        'testing/index',
        'demo/demo-server',
        'frameworks/ai-sdk-read-link',
        'frameworks/claude-agent-hooks',
        'frameworks/copilot-sdk-hooks',
        'frameworks/langchain-read-link',
        'frameworks/mastra-tools',
        'frameworks/openai-agents-server',
      ].sort(),
    );
    // the demo server is a program (its subpath names the file to run), not a module with types
    expect(pkg.exports['./demo-server']).toBe(`./${libraryDir}/demo/demo-server.js`);
    // types stay tsc's declarations beside the tsc output
    for (const name of Object.keys(libraryEntries()).filter((n) => n !== 'demo/demo-server'))
      expect(Object.values(pkg.exports)).toContainEqual({
        types: `./dist/${name}.d.ts`,
        default: `./${libraryDir}/${name}.js`,
      });
  });

  it('loads the bundle only: a dozen files, none from node_modules, with zod and yaml inlined', () => {
    const { files, stdout } = loadsOf(firstDecision);
    expect(stdout.trim()).toBe('allow');
    const bundle = realpathSync(path.join(scratch, libraryDir));
    expect(files.filter((f) => !f.startsWith(`${bundle}${path.sep}`))).toEqual([]);
    expect(files.length).toBeLessThanOrEqual(16);
    // the control: the guard sees the parser and the schema library, inside the chunks it loaded
    const byChunk = new Map(
      Object.entries(metafile.outputs).map(([out, { inputs }]) => [
        realpathSync(path.resolve(repoRoot, out)),
        Object.keys(inputs).map(normalise),
      ]),
    );
    const sources = files.flatMap((f) => byChunk.get(f) ?? []);
    expect(sources.some((s) => s.startsWith('node_modules/yaml/'))).toBe(true);
    expect(sources.some((s) => s.startsWith('node_modules/zod/'))).toBe(true);
    expect(sources.some((s) => s.startsWith('node_modules/ipaddr.js/'))).toBe(true);
    // the read decision and the content judges are a chunk of their own, loaded at the first read
    expect(sources).not.toContain('src/gate/decide-read.ts');
  });

  it('the peers and @opentelemetry/api stay the user\u2019s packages; the source map names src/', () => {
    const inputs = Object.keys(metafile.inputs).map(normalise);
    expect(inputs.filter((s) => /^node_modules\/(?:@modelcontextprotocol|@opentelemetry)\//.test(s))).toEqual([]);
    // every output's map names the sources it was built from, in src/ (and node_modules/), each a file that exists
    const named = Object.keys(metafile.outputs)
      .filter((out) => out.endsWith('.js.map'))
      .flatMap((out) => {
        const file = path.resolve(repoRoot, out);
        const { sources } = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] };
        // a plugin's virtual module (the English-only zod locale table) is named by its namespace
        const files = sources.filter((s) => !/^[\w-]+:/.test(s));
        return files.map((s) => path.relative(repoRoot, path.resolve(path.dirname(file), s)));
      });
    expect(named).toContain('src/gate/create-gate.ts');
    expect(named.filter((s) => !existsSync(path.join(repoRoot, s)))).toEqual([]);
  });

  it('one copy of each module across the entry, linkgate/testing and the framework subpaths (one GateError class)', () => {
    const outputsOf = new Map<string, number>();
    for (const { inputs } of Object.values(metafile.outputs))
      for (const input of Object.keys(inputs)) outputsOf.set(input, (outputsOf.get(input) ?? 0) + 1);
    expect(outputsOf.get('src/errors.ts')).toBe(1);
    expect([...outputsOf].filter(([, n]) => n > 1)).toEqual([]);
  });
});
