// Issue 42 item 1: a pre-read hook event (`linkgate hook claude-code`, PreToolUse) and an `eval` link line load no
// yaml, no zod and no content parser. The guard runs the CLI bundle as shipped (the same esbuild options), records
// every module the process actually loads (test/speed/record-loads.mjs) and maps each loaded chunk to the source files
// esbuild put in it (the bundle's metafile). Two controls show the guard sees what it looks for: an eval whose policy
// is not yet cached loads the yaml parser and the policy schema, and a read result (PostToolUse) loads the content
// judges.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cachedEntryBuildOptions,
  cliBuildOptions,
  eventBuildOptions,
  policyDepsName,
  repoRoot,
} from '../../scripts/cli-build-options.ts';
import { readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { generateKeyPairSync } from 'node:crypto';
import { parseSshPublicKey } from '../../src/policy/ssh-public-key.ts';
import { SshWriter } from '../../src/policy/ssh-wire.ts';
import { signPolicyBytes } from '../../src/review/openssh-private-key.ts';

const recorder = fileURLToPath(new URL('./record-loads.mjs', import.meta.url));
let scratch: string;
let bin: string;
let metafile: Metafile;

beforeAll(async () => {
  // inside the package, as an installed bundle is: `require('zod/mini')` resolves from the bundle's folder
  const cacheRoot = path.join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cacheRoot, { recursive: true });
  scratch = mkdtempSync(path.join(cacheRoot, 'linkgate-pre-read-loads-'));
  bin = path.join(scratch, 'bin');
  ({ metafile } = await build({ ...cliBuildOptions(bin), metafile: true, sourcemap: false, logLevel: 'error' }));
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// each output chunk of the bundle, by its real path (a shared node_modules may be a symlink), to its source files
let byChunk: Map<string, string[]> | undefined;
function chunkInputs(): Map<string, string[]> {
  byChunk ??= new Map(
    Object.entries(metafile.outputs).map(([out, { inputs }]) => [
      realpathSync(path.resolve(repoRoot, out)),
      Object.keys(inputs),
    ]),
  );
  return byChunk;
}

/** The source files (repo-relative, `node_modules/…` for packages) of every module a run loaded. */
function loadedSources(loads: readonly string[]): Set<string> {
  const sources = new Set<string>();
  for (const entry of loads) {
    const file = entry.startsWith('file:') ? fileURLToPath(entry) : entry;
    const inputs = chunkInputs().get(file);
    if (inputs !== undefined) for (const input of inputs) sources.add(normalise(input));
    else if (path.isAbsolute(file)) sources.add(normalise(path.relative(repoRoot, file)));
  }
  return sources;
}

// `../../main/node_modules/zod/…` (a shared node_modules) and `node_modules/zod/…` name the same package
const normalise = (source: string) => source.replace(/^(?:\.\.\/)*(?:[^/]+\/)*?node_modules\//, 'node_modules/');

// the content modules with no parser the pre-read path may load: the two a policy's settings name (the kinds, and the
// consumer ids of `content.consumers`: types and a list of names only) and the text decoder (node's isUtf8 and a
// byte order mark test, no import) the refused-address search shares with the content layer to read a text blob
const contentTables = new Set([
  'src/content/kinds.ts',
  'src/content/consumers/content-consumer.ts',
  'src/content/text/text-encoding.ts',
]);

/** The loaded sources the pre-read path must not load: yaml, zod, and any content judge but the two tables. */
function forbidden(sources: ReadonlySet<string>): string[] {
  return [...sources].filter(
    (s) => /^node_modules\/(?:yaml|zod)\//.test(s) || (s.startsWith('src/content/') && !contentTables.has(s)),
  );
}

function run(args: readonly string[], input: string): { sources: Set<string>; stdout: string } {
  const loadsFile = path.join(scratch, `loads-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(loadsFile, '');
  const r = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(recorder).href, path.join(bin, 'linkgate.js'), ...args],
    { input, encoding: 'utf8', cwd: repoRoot, env: { ...process.env, LINKGATE_LOADS_FILE: loadsFile } },
  );
  expect(r.status, r.stderr).toBe(0);
  const loads = readFileSync(loadsFile, 'utf8').split('\n').filter(Boolean);
  return { sources: loadedSources(loads), stdout: r.stdout };
}

describe('the pre-read path loads no yaml, no zod and no content parser', () => {
  const policy = path.join(repoRoot, 'policies', 'default.yaml');
  const evalLine = `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'https://docs.example.com/a', name: 'a' } })}\n`;

  it('eval of a link line, once its policy is cached; the first eval (not cached) loads yaml and zod', () => {
    const first = run(['eval', '--policy', policy], evalLine);
    expect(first.stdout).toContain('"effect":"allow"');
    // the control: the guard sees the parser and the schema where they are loaded
    expect(forbidden(first.sources).some((s) => s.startsWith('node_modules/yaml/'))).toBe(true);
    expect(forbidden(first.sources).some((s) => s.startsWith('node_modules/zod/'))).toBe(true);
    const next = run(['eval', '--policy', policy], evalLine);
    expect(next.stdout).toBe(first.stdout);
    expect(next.sources).toContain('src/gate/decide-link.ts');
    expect(forbidden(next.sources)).toEqual([]);
    // the validated policy is kept next to the bundle, never in the working folder
    expect(readdirSync(path.join(bin, 'policy-cache'))).toHaveLength(1);
  });

  it('eval --allowed-signers of a link line, once its verified policy is kept; the first eval checks it in full', () => {
    const pair = generateKeyPairSync('ed25519');
    const x = Buffer.from(pair.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
    const blob = new SshWriter().string('ssh-ed25519').string(x).bytes();
    const signed = path.join(scratch, 'signed.yaml');
    const text = readFileSync(policy, 'utf8').replace(/reviewers: \[[^\]]*\]/, 'reviewers: [loads@example.com]');
    writeFileSync(signed, text);
    const key = { publicKey: parseSshPublicKey(blob), key: pair.privateKey, comment: '' };
    writeFileSync(`${signed}.sig`, signPolicyBytes(key, Buffer.from(text)));
    const signers = path.join(scratch, 'allowed_signers');
    writeFileSync(signers, `loads@example.com namespaces="linkgate-policy" ssh-ed25519 ${blob.toString('base64')}\n`);
    const args = ['eval', '--policy', signed, '--allowed-signers', signers];
    const first = run(args, evalLine);
    expect(first.stdout).toContain('"effect":"allow"');
    expect(forbidden(first.sources).some((s) => s.startsWith('node_modules/yaml/'))).toBe(true);
    const next = run(args, evalLine);
    expect(next.stdout).toBe(first.stdout);
    expect(next.sources).toContain('src/policy/reviewed-policy-cache.ts');
    expect(forbidden(next.sources)).toEqual([]);
    expect(readdirSync(path.join(bin, 'policy-cache')).filter((n) => n.startsWith('reviewed-'))).toHaveLength(1);
  });

  it('a PreToolUse hook event; a PostToolUse read result loads the content judges', () => {
    const state = path.join(scratch, 'state');
    const hook = ['hook', 'claude-code', '--policy', policy, '--state', state];
    const pre = JSON.stringify(readRequested('docs', 'guide://manuals/packing', { session: 'loads' }));
    run(hook, pre);
    const event = run(hook, pre);
    expect(event.stdout).toBe('');
    expect(event.sources).toContain('src/hook/hook-pre-read.ts');
    expect(forbidden(event.sources)).toEqual([]);
    const post = JSON.stringify(
      readReturned(
        'docs',
        'guide://manuals/packing',
        [{ uri: 'guide://manuals/packing', mimeType: 'text/markdown', text: '# packing\n\nfold, then roll\n' }],
        { session: 'loads' },
      ),
    );
    const read = run(hook, post);
    expect(forbidden(read.sources).some((s) => s.startsWith('src/content/'))).toBe(true);
  });

  it('an invalid link line loads zod (the schema names the field) and is still answered', () => {
    const bad = `${JSON.stringify({ stage: 'link', link: { type: 'resource_link', uri: 5, name: 'a' } })}\n`;
    const r = run(['eval', '--policy', policy], bad);
    expect(r.stdout).toContain('field `link.uri`');
    expect(forbidden(r.sources).some((s) => s.startsWith('node_modules/zod/'))).toBe(true);
  });
});

// The code-cache start (`linkgate-cached.cjs`) runs the per-event commands from one CommonJS event bundle, where every
// module is a lazily run initializer named by its source file. V8's coverage says which initializers ran: the same
// guard, over what the event bundle evaluated (built unminified here, so the initializers keep their names).
describe('the event bundle (code-cache start) evaluates no yaml, no zod and no content parser before a read', () => {
  let eventBin: string;
  beforeAll(async () => {
    eventBin = path.join(scratch, 'event-bin');
    await build({ ...eventBuildOptions(eventBin), minify: false, logLevel: 'error' });
    await build({ ...cachedEntryBuildOptions(eventBin), logLevel: 'error' });
  }, 120_000);

  // the source files whose module initializer ran in the event bundle during one run
  function evaluated(args: readonly string[], input: string): Set<string> {
    const coverage = mkdtempSync(path.join(scratch, 'coverage-'));
    const r = spawnSync(process.execPath, [path.join(eventBin, 'linkgate-cached.cjs'), ...args], {
      input,
      encoding: 'utf8',
      cwd: repoRoot,
      env: { ...process.env, NODE_V8_COVERAGE: coverage },
    });
    expect(r.status, r.stderr).toBe(0);
    const sources = new Set<string>();
    for (const name of readdirSync(coverage)) {
      const { result } = JSON.parse(readFileSync(path.join(coverage, name), 'utf8')) as {
        result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
      };
      for (const script of result) {
        // zod and yaml live in the sidecar beside the event bundle (scripts/cli-build-options.ts, `policyDepsSidecar`)
        if (script.url.endsWith(`${policyDepsName}.cjs`)) sources.add(`${policyDepsName}.cjs`);
        else if (!script.url.endsWith('linkgate-event.cjs')) continue;
        for (const f of script.functions) {
          if ((f.ranges[0]?.count ?? 0) === 0) continue;
          if (/\.(?:[cm]?js|ts|json)$/.test(f.functionName)) sources.add(normalise(f.functionName));
          // the functions that build a table at first use instead of at load, by name (esbuild may add a digit)
          else if (/^unseenCodePoints\d*$/.test(f.functionName)) sources.add('built: unseenCodePoints');
        }
      }
    }
    return sources;
  }

  it('a PreToolUse event and an eval link line; a read result evaluates the content judges', () => {
    const policy = path.join(repoRoot, 'policies', 'default.yaml');
    const state = path.join(scratch, 'event-state');
    const hook = ['hook', 'claude-code', '--policy', policy, '--state', state];
    const pre = JSON.stringify(readRequested('docs', 'guide://manuals/packing', { session: 'event' }));
    const warm = evaluated(hook, pre);
    // the control: the first event parses the policy (not cached yet) and evaluates yaml and zod
    expect(forbidden(warm).some((s) => s.startsWith('node_modules/yaml/'))).toBe(true);
    expect(warm).toContain(`${policyDepsName}.cjs`);
    const event = evaluated(hook, pre);
    expect(event).toContain('src/hook/hook-pre-read.ts');
    // once the policy is cached, the sidecar is not even read
    expect(event).not.toContain(`${policyDepsName}.cjs`);
    expect(forbidden(event)).toEqual([]);
    const line = `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'https://docs.example.com/a', name: 'a' } })}\n`;
    evaluated(['eval', '--policy', policy], line);
    const evalRun = evaluated(['eval', '--policy', policy], line);
    expect(evalRun).toContain('src/gate/decide-link.ts');
    expect(forbidden(evalRun)).toEqual([]);
    const post = JSON.stringify(
      readReturned(
        'docs',
        'guide://manuals/packing',
        [{ uri: 'guide://manuals/packing', mimeType: 'text/markdown', text: '# packing\n\nfold, then roll\n' }],
        { session: 'event' },
      ),
    );
    expect(forbidden(evaluated(hook, post)).some((s) => s.startsWith('src/content/'))).toBe(true);
  });

  // `entities` decodes its HTML entity table when it is evaluated; the event bundle runs it only at the first text
  // read back that holds a `&` (`deferredPackages` in scripts/cli-build-options.ts); the default-ignorable code
  // points' set (`unseenCodePoints` in src/flow/read-back.ts, ~0.5 ms to build) at the first text read back
  const builtLazily = (sources: ReadonlySet<string>) =>
    [...sources].some((s) => s.startsWith('node_modules/entities/')) || sources.has('built: unseenCodePoints');

  it('a PreToolUse event and an eval line build no entity table or code point set; a refused address spelled with references does', () => {
    const policy = path.join(repoRoot, 'policies', 'default.yaml');
    const state = path.join(scratch, 'entities-state');
    const hook = ['hook', 'claude-code', '--policy', policy, '--state', state];
    const pre = JSON.stringify(readRequested('docs', 'guide://manuals/packing', { session: 'entities' }));
    evaluated(hook, pre);
    const event = evaluated(hook, pre);
    expect(event).toContain('src/flow/read-back.ts');
    expect(builtLazily(event)).toBe(false);
    const line = `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'https://docs.example.com/a', name: 'a' } })}\n`;
    evaluated(['eval', '--policy', policy], line);
    expect(builtLazily(evaluated(['eval', '--policy', policy], line))).toBe(false);
    // the control: a tool result refuses an internal address, a later one spells it with character references
    const refused = { type: 'resource_link', uri: 'http://10.0.0.7/admin', name: 'admin' };
    evaluated(
      hook,
      JSON.stringify(toolReturned('docs', 'links', [refused], { session: 'entities', toolUseId: 'toolu_refused' })),
    );
    const spelled = { type: 'text', text: 'see http://10&#46;0&#46;0&#46;7/admin' };
    const later = evaluated(
      hook,
      JSON.stringify(toolReturned('docs', 'links', [spelled], { session: 'entities', toolUseId: 'toolu_spelled' })),
    );
    expect([...later].some((s) => s.startsWith('node_modules/entities/'))).toBe(true);
    expect(later).toContain('built: unseenCodePoints');
  });
});
