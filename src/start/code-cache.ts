import { createHash } from 'node:crypto';
import {
  type BigIntStats,
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';
import { codeCacheDir, eventBundleName } from './start-files.ts';

// V8's code cache for the event bundle (issue 42 item 2; docs/speed.md says why a code cache and not a start-up
// snapshot). Cached data is executable code: V8 checks only the source's length and its own flags before using it,
// so a cache made for other code of the same length would run that other code. Each cache file is therefore named
// by a sha-256 of the bundle's bytes, the Node version, the platform and the flags, and read only from a folder (and
// a file) no other user can write, next to the installed bundle; anything that does not match is never read, and
// the bundle is compiled as usual.
//
// Hashing the 0.8 MB bundle at every start costs about as much as reading it, so the hash is kept beside the caches
// with the bundle's stat (device, inode, size, modification and change times, to the nanosecond): a start whose
// bundle has exactly that stat takes the kept hash, any other stat hashes the bytes again. The change time moves with
// every write, rename or chmod of the file and cannot be set back by its owner, so a bundle that changed since the
// hash was kept never matches; a stat is kept only once its change time is `racyStatMs` old, so a write within the
// file system's timestamp tick of the one that was hashed cannot share its stat.

/** Layout version of the cache; changing it turns every older file into a miss. */
export const codeCacheFormat = 2;

/** How old a bundle's change time must be before its stat is kept with its hash, milliseconds. */
export const racyStatMs = 2000;

/** What one cache file depends on: the bundle's bytes and the runtime that compiled it. */
export interface CodeCacheRuntime {
  /** `process.version` */
  version: string;
  /** `process.arch` and `process.platform`, and V8's version */
  target: string;
  /** the flags V8 ran with: `process.execArgv` and `NODE_OPTIONS` */
  flags: readonly string[];
}

/** The runtime of this process. */
export function currentRuntime(): CodeCacheRuntime {
  return {
    version: process.version,
    target: `${process.platform} ${process.arch} v8 ${process.versions.v8}`,
    flags: [...process.execArgv, `NODE_OPTIONS=${process.env['NODE_OPTIONS'] ?? ''}`],
  };
}

/** The hex sha-256 of a bundle's bytes. */
export function bundleDigest(source: Uint8Array): string {
  return createHash('sha256').update(source).digest('hex');
}

/** The key of the cache for `source` compiled by `runtime`: hex sha-256. */
export function codeCacheKey(source: Uint8Array, runtime: CodeCacheRuntime): string {
  return keyOfDigest(bundleDigest(source), runtime);
}

// the key of the cache for the bundle whose bytes hash to `digest`
function keyOfDigest(digest: string, runtime: CodeCacheRuntime): string {
  return createHash('sha256')
    .update(`linkgate code cache ${codeCacheFormat}\0${runtime.version}\0${runtime.target}\0`)
    .update(JSON.stringify(runtime.flags))
    .update(`\0${digest}`)
    .digest('hex');
}

/** The cache file of the bundle `file` (its `bytes`) compiled by `runtime`, in `cacheDir`. */
export function codeCacheFile(file: string, bytes: Uint8Array, cacheDir: string, runtime: CodeCacheRuntime): string {
  return cacheFileOf(file, bundleDigest(bytes), cacheDir, runtime);
}

function cacheFileOf(file: string, digest: string, cacheDir: string, runtime: CodeCacheRuntime): string {
  return join(cacheDir, `${basename(file)}-${keyOfDigest(digest, runtime)}.v8`);
}

/** The file that keeps the bundle `file`'s stat with the hash of its bytes, in `cacheDir`. */
export function bundleStatFile(file: string, cacheDir: string): string {
  return join(cacheDir, `${basename(file)}.stat`);
}

// every part of a stat that a change to the file's bytes moves
function statFingerprint(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

// the hash kept for a bundle of exactly this stat, from a trusted file of a trusted folder; undefined when none
function keptDigest(statFile: string, fingerprint: string): string | undefined {
  if (!trustedFile(statFile)) return undefined;
  try {
    const [kept, digest] = readFileSync(statFile, 'latin1').split('\n');
    return kept === fingerprint && digest !== undefined && /^[0-9a-f]{64}$/.test(digest) ? digest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a start of the code-cache entry `cachedEntry` (an absolute `…/dist/bin/linkgate-cached.cjs`) by this Node, with
 * the node flags `nodeFlags` and the environment `env`, would compile the event bundle instead of using its cache
 * (`linkgate doctor`), or null when a cache made for exactly these bytes, this Node and these flags is there.
 */
export function staleCodeCacheLine(
  cachedEntry: string,
  nodeFlags: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  const binDir = dirname(cachedEntry);
  const bundle = join(binDir, eventBundleName);
  const dir = codeCacheDir(binDir);
  let bytes: Buffer;
  try {
    bytes = readFileSync(bundle);
  } catch {
    return `the event bundle \`${bundle}\` cannot be read: every event fails`;
  }
  if (trustedFolder(dir) === 'no')
    return `the code cache folder \`${dir}\` is not one only this user (or root) can write: it is never used, and every event compiles the bundle`;
  const runtime = {
    ...currentRuntime(),
    flags: [...nodeFlags, `NODE_OPTIONS=${env['NODE_OPTIONS'] ?? ''}`],
  };
  if (trustedFile(codeCacheFile(bundle, bytes, dir, runtime))) return null;
  const flags = runtime.flags.join(' ');
  const cause = `no code cache in \`${dir}\` matches the bundle, node ${runtime.version} and the flags \`${flags}\``;
  return canWrite(dir)
    ? `the code cache is stale: ${cause}; the next event compiles the bundle and writes one`
    : `the code cache is stale: ${cause}, and this user cannot write the folder: every event compiles the bundle (run \`node ${cachedEntry} eval --policy FILE < /dev/null\` once as its owner)`;
}

/** How the bundle was compiled: from a matching cache (`hit`), without one (`miss`), with one V8 refused (`rejected`), or with no trusted folder (`off`). */
export type CodeCacheStatus = 'hit' | 'miss' | 'rejected' | 'off';

/** A CommonJS bundle compiled and run: its exports, how it was compiled, and `save` to write its cache. */
export interface CachedScript {
  exports: Record<string, unknown>;
  status: CodeCacheStatus;
  /** the cache file for this bundle and runtime (whether or not it exists) */
  cacheFile: string;
  /**
   * writes the cache (code compiled so far included) when there was none that V8 took, and the bundle's stat with its
   * hash when none was kept and the stat is old enough, when the folder is ours
   */
  save(): void;
}

/**
 * Compiles and runs the CommonJS bundle `file` as Node would (`exports`, `require`, `module`, `__filename`,
 * `__dirname`), with V8's code cache from `cacheDir` when one exists for exactly these bytes and this runtime; the
 * bytes are hashed unless a hash is kept for exactly their file's stat (`now`: the clock the stat's age is read by).
 */
export function runCachedScript(
  file: string,
  cacheDir: string,
  runtime: CodeCacheRuntime = currentRuntime(),
  now: () => number = Date.now,
): CachedScript {
  // the stat and the bytes of one open file; the clock read before the stat, so a write after it has a later ctime
  const statAt = now();
  const fd = openSync(file, 'r');
  let bytes: Buffer;
  let stat: BigIntStats;
  try {
    stat = fstatSync(fd, { bigint: true });
    bytes = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  const trusted = trustedFolder(cacheDir);
  const fingerprint = statFingerprint(stat);
  const statFile = bundleStatFile(file, cacheDir);
  const kept = trusted === 'yes' ? keptDigest(statFile, fingerprint) : undefined;
  const digest = kept ?? bundleDigest(bytes);
  const cacheFile = cacheFileOf(file, digest, cacheDir, runtime);
  let cachedData: Buffer | undefined;
  if (trusted === 'yes' && trustedFile(cacheFile)) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${bytes.toString('utf8')}\n})`,
    {
      filename: file,
      ...(cachedData === undefined ? {} : { cachedData }),
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    },
  );
  const status: CodeCacheStatus =
    trusted === 'no'
      ? 'off'
      : cachedData === undefined
        ? 'miss'
        : script.cachedDataRejected === true
          ? 'rejected'
          : 'hit';
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  return {
    exports: module.exports,
    status,
    cacheFile,
    save() {
      if (status === 'off') return;
      if (status !== 'hit') writeAtomic(cacheDir, cacheFile, script.createCachedData());
      // the hash kept with the stat when the stat was old enough, as it was read, that no later write can share it
      if (kept === undefined && statAt - Number(stat.ctimeNs / 1_000_000n) >= racyStatMs)
        writeAtomic(cacheDir, statFile, `${fingerprint}\n${digest}`);
    },
  };
}

// writes `file` in `dir` whole (a reader never sees half of it), mode 0600, in a folder made 0700
function writeAtomic(dir: string, file: string, data: Uint8Array | string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // the cache only saves time: one that cannot be written leaves the next start to compile (or hash) again
    rmSync(temp, { force: true });
  }
}

// a folder this user (or root) owns and no other user can write: `maybe` when it is not made yet and its parent is
// such a folder (the write makes it, mode 0700). Without user ids (Windows) nothing is trusted.
function trustedFolder(dir: string): 'yes' | 'no' {
  const uid = process.getuid?.();
  if (uid === undefined) return 'no';
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && (stat.uid === uid || stat.uid === 0) && (stat.mode & 0o022) === 0 ? 'yes' : 'no';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return 'no';
    return dirname(dir) !== dir && trustedFolder(dirname(dir)) === 'yes' ? 'yes' : 'no';
  }
}

// the folder (or, when it is not made yet, its parent) takes this user's writes
function canWrite(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    try {
      accessSync(at, constants.W_OK);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) return false;
    }
  }
}

function trustedFile(file: string): boolean {
  try {
    const stat = lstatSync(file);
    const uid = process.getuid?.();
    return stat.isFile() && (stat.uid === uid || stat.uid === 0) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}
