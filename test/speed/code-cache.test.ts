// Issue 42 item 2: V8's code cache is executable code, and V8 itself checks only the source's length and its flags.
// A cache is used only for exactly the bytes, Node version, platform and flags it was made for, from a folder no
// other user can write; anything else is never read and the bundle compiles as usual.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cachedEntryBuildOptions, eventBuildOptions, repoRoot } from '../../scripts/cli-build-options.ts';
import { eventCommandNames } from '../../src/cli/cached-start.ts';
import {
  bundleStatFile,
  codeCacheKey,
  currentRuntime,
  racyStatMs,
  runCachedScript,
} from '../../src/start/code-cache.ts';
import { perEventCommands } from '../../src/cli/per-event-commands.ts';

let dir: string;
let cacheDir: string;
let bundle: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'linkgate-code-cache-'));
  cacheDir = path.join(dir, 'code-cache');
  bundle = path.join(dir, 'bundle.cjs');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// a CommonJS bundle whose answer is in its code: `deny!` and `allow` have the same length, as a swapped verdict would
const write = (answer: string) =>
  writeFileSync(bundle, `exports.answer = function answer() { return ${JSON.stringify(answer)}; };\n`);
const run = (runtime = currentRuntime()) => {
  const script = runCachedScript(bundle, cacheDir, runtime);
  script.save();
  return { status: script.status, answer: (script.exports['answer'] as () => string)() };
};

describe('runCachedScript', () => {
  it('compiles without a cache, then uses the one it wrote', () => {
    write('allow');
    expect(run()).toEqual({ status: 'miss', answer: 'allow' });
    expect(run()).toEqual({ status: 'hit', answer: 'allow' });
  });

  it('an edited bundle of the same length never reads the old cache: its own code runs', () => {
    write('deny!');
    expect(run()).toEqual({ status: 'miss', answer: 'deny!' });
    const [old] = readdirSync(cacheDir);
    write('allow');
    const edited = runCachedScript(bundle, cacheDir);
    // even a cache planted under the edited bundle's own name, made for the old code, is V8's to refuse or V8's to run:
    // the name is what keeps it out, so the old file is not the one read
    expect(path.basename(edited.cacheFile)).not.toBe(old);
    expect(edited.status).toBe('miss');
    expect((edited.exports['answer'] as () => string)()).toBe('allow');
  });

  it('another Node version, platform or set of flags is a miss, whatever cache exists', () => {
    write('allow');
    run();
    const runtime = currentRuntime();
    expect(run({ ...runtime, version: 'v20.0.0' }).status).toBe('miss');
    expect(run({ ...runtime, target: `${runtime.target} other` }).status).toBe('miss');
    expect(run({ ...runtime, flags: [...runtime.flags, '--jitless'] }).status).toBe('miss');
    expect(run().status).toBe('hit');
  });

  it('a folder or file other users can write is never read nor written', () => {
    write('allow');
    run();
    const [file] = readdirSync(cacheDir);
    chmodSync(path.join(cacheDir, file ?? ''), 0o666);
    expect(run().status).toBe('miss');
    chmodSync(cacheDir, 0o777);
    rmSync(path.join(cacheDir, file ?? ''));
    expect(run()).toEqual({ status: 'off', answer: 'allow' });
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  // a start that finds the bundle's stat kept with its hash takes the hash instead of reading the bytes for it
  const later = () => Date.now() + racyStatMs + 60_000;
  const runLater = () => {
    const script = runCachedScript(bundle, cacheDir, currentRuntime(), later);
    script.save();
    return { status: script.status, answer: (script.exports['answer'] as () => string)() };
  };

  it('keeps the bundle hash with its stat only once the stat is old enough, then starts from it', () => {
    write('allow');
    // just written: a write within the same timestamp tick could share the stat, so none is kept
    expect(run()).toEqual({ status: 'miss', answer: 'allow' });
    expect(existsSync(bundleStatFile(bundle, cacheDir))).toBe(false);
    expect(runLater()).toEqual({ status: 'hit', answer: 'allow' });
    expect(existsSync(bundleStatFile(bundle, cacheDir))).toBe(true);
    expect(run()).toEqual({ status: 'hit', answer: 'allow' });
  });

  it('a stat read while it was fresh is never kept, however late the start saves (its bytes may be a later write)', () => {
    write('allow');
    // the clock reads fresh while the start reads the stat and runs, late when it saves
    let late = false;
    const clock = () => Date.now() + (late ? racyStatMs + 60_000 : 0);
    const script = runCachedScript(bundle, cacheDir, currentRuntime(), clock);
    late = true;
    script.save();
    expect(existsSync(bundleStatFile(bundle, cacheDir))).toBe(false);
  });

  it('a bundle replaced by other code of the same length never takes the kept hash: its own code runs', () => {
    write('deny!');
    runLater();
    expect(existsSync(bundleStatFile(bundle, cacheDir))).toBe(true);
    // another file in its place (a new inode and change time), as an install or a build writes it
    const next = `${bundle}.next`;
    writeFileSync(next, `exports.answer = function answer() { return ${JSON.stringify('allow')}; };\n`);
    renameSync(next, bundle);
    expect(runLater()).toEqual({ status: 'miss', answer: 'allow' });
    expect(runLater()).toEqual({ status: 'hit', answer: 'allow' });
  });

  it('a bundle edited in place never takes the kept hash once its stat moved: its own code runs', () => {
    write('deny!');
    runLater();
    const before = statSync(bundle, { bigint: true });
    // the same length, written in place: the change time moves with the write (waited for, not slept on)
    let after = before;
    while (after.ctimeNs === before.ctimeNs && after.mtimeNs === before.mtimeNs) {
      write('allow');
      after = statSync(bundle, { bigint: true });
    }
    expect(runLater()).toEqual({ status: 'miss', answer: 'allow' });
  });

  it('a kept stat in a file other users can write is never read', () => {
    write('allow');
    runLater();
    const statFile = bundleStatFile(bundle, cacheDir);
    // a kept hash that lies: were it read, the start would look for the cache of other bytes
    const [fingerprint] = readFileSync(statFile, 'latin1').split('\n');
    writeFileSync(statFile, `${fingerprint}\n${'0'.repeat(64)}`);
    chmodSync(statFile, 0o666);
    expect(runLater()).toEqual({ status: 'hit', answer: 'allow' });
  });

  it('the key covers the bytes, the version, the target and the flags', () => {
    const runtime = currentRuntime();
    const key = codeCacheKey(Buffer.from('a'), runtime);
    expect(codeCacheKey(Buffer.from('b'), runtime)).not.toBe(key);
    expect(codeCacheKey(Buffer.from('a'), { ...runtime, version: 'v0' })).not.toBe(key);
    expect(codeCacheKey(Buffer.from('a'), { ...runtime, target: 'x' })).not.toBe(key);
    expect(codeCacheKey(Buffer.from('a'), { ...runtime, flags: ['--x'] })).not.toBe(key);
    expect(codeCacheKey(Buffer.from('a'), runtime)).toBe(key);
  });

  it('names the commands the event bundle holds', () => {
    expect([...eventCommandNames].sort()).toEqual(Object.keys(perEventCommands).sort());
  });
});

describe('linkgate-cached.cjs, the built start', () => {
  let scratch: string;
  let bin: string;
  beforeAll(async () => {
    // inside the package, as an installed bundle is
    const cacheRoot = path.join(repoRoot, 'node_modules', '.cache');
    mkdirSync(cacheRoot, { recursive: true });
    scratch = mkdtempSync(path.join(cacheRoot, 'linkgate-code-cache-'));
    bin = path.join(scratch, 'bin');
    await build({ ...eventBuildOptions(bin), logLevel: 'error' });
    await build({ ...cachedEntryBuildOptions(bin), logLevel: 'error' });
  }, 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const line = `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'http://127.0.0.1/', name: 'a' } })}\n`;
  const evalOnce = (flags: readonly string[] = []) => {
    const r = spawnSync(
      process.execPath,
      [...flags, path.join(bin, 'linkgate-cached.cjs'), 'eval', '--policy', 'policies/default.yaml'],
      { input: line, encoding: 'utf8', cwd: repoRoot, env: { ...process.env, LINKGATE_CODE_CACHE_REPORT: '1' } },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('"effect":"deny"');
    return /linkgate code cache: (\w+)/.exec(r.stderr)?.[1];
  };

  it('the event bundle is ASCII only: V8 keeps its source one byte a character, with no two-byte copy at every start', () => {
    const bytes = readFileSync(path.join(bin, 'linkgate-event.cjs'));
    const at = bytes.findIndex((b) => b > 0x7f);
    const around = at === -1 ? '' : bytes.subarray(Math.max(0, at - 60), at + 20).toString('utf8');
    expect(at, `a non-ASCII character in the event bundle: ${around}`).toBe(-1);
  });

  it('a miss writes the cache next to the bundle; then a hit; an edited bundle or other flags are misses', () => {
    expect(evalOnce()).toBe('miss');
    expect(existsSync(path.join(bin, 'code-cache'))).toBe(true);
    expect(evalOnce()).toBe('hit');
    expect(evalOnce(['--stack-size=2000'])).toBe('miss');
    const event = path.join(bin, 'linkgate-event.cjs');
    copyFileSync(event, `${event}.orig`);
    appendFileSync(event, '\n// edited\n');
    expect(evalOnce()).toBe('miss');
    copyFileSync(`${event}.orig`, event);
    expect(evalOnce()).toBe('hit');
  });
});
