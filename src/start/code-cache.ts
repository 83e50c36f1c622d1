import { createHash } from 'node:crypto';
import { accessSync, constants, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/** Layout version of the cache; changing it turns every older file into a miss. */
export const codeCacheFormat = 1;

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

/** The key of the cache for `source` compiled by `runtime`: hex sha-256. */
export function codeCacheKey(source: Uint8Array, runtime: CodeCacheRuntime): string {
  return createHash('sha256')
    .update(`linkgate code cache ${codeCacheFormat}\0${runtime.version}\0${runtime.target}\0`)
    .update(JSON.stringify(runtime.flags))
    .update('\0')
    .update(source)
    .digest('hex');
}

/** The cache file of the bundle `file` (its `bytes`) compiled by `runtime`, in `cacheDir`. */
export function codeCacheFile(file: string, bytes: Uint8Array, cacheDir: string, runtime: CodeCacheRuntime): string {
  return join(cacheDir, `${basename(file)}-${codeCacheKey(bytes, runtime)}.v8`);
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
  /** writes the cache (code compiled so far included) when there was none that V8 took and the folder is ours */
  save(): void;
}

/**
 * Compiles and runs the CommonJS bundle `file` as Node would (`exports`, `require`, `module`, `__filename`,
 * `__dirname`), with V8's code cache from `cacheDir` when one exists for exactly these bytes and this runtime.
 */
export function runCachedScript(
  file: string,
  cacheDir: string,
  runtime: CodeCacheRuntime = currentRuntime(),
): CachedScript {
  const bytes = readFileSync(file);
  const cacheFile = codeCacheFile(file, bytes, cacheDir, runtime);
  const trusted = trustedFolder(cacheDir);
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
      if (status === 'hit' || status === 'off') return;
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        renameSync(temp, cacheFile);
      } catch {
        // the cache only saves time: one that cannot be written leaves the next start to compile again
        rmSync(temp, { force: true });
      }
    },
  };
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
