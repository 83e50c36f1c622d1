// On-demand install of a host CLI from the npm registry into a cache folder shared by every vitest worker and
// every checkout on the machine: one install per package version (a lock directory), made in a scratch folder,
// verified, then renamed into place, so a reader never sees a half-installed package.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, hostname, tmpdir } from 'node:os';
import path from 'node:path';

/** A host binary ready to run, or why it is not (a one-line reason for the skip message). */
export type HostInstall = { ok: true; bin: string; version: string; dir: string } | { ok: false; reason: string };

/** What to install: an npm package at an exact version, the executable inside it, and how to check it runs. */
export interface PackageSpec {
  /** npm package name, e.g. `@anthropic-ai/claude-code-linux-x64` */
  name: string;
  /** exact version, never a range */
  version: string;
  /** the executable's path relative to the install prefix */
  bin: string;
  /** arguments that make the executable print its version, and a text that output must contain */
  versionCheck: { args: string[]; expect: string };
  /** run the executable with `node` (a JavaScript entry) instead of directly */
  viaNode?: boolean;
  /** more exact `name@version` specs installed beside it (a framework's packages that are not its dependencies) */
  with?: readonly string[];
}

/** Longest a whole install may take before it counts as failed (milliseconds). */
export const installTimeoutMs = 10 * 60_000;
const lockPollMs = 250;

/** The cache folder: `$LINKGATE_TEST_CACHE`, else `$XDG_CACHE_HOME/linkgate`, else `~/.cache/linkgate`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env['LINKGATE_TEST_CACHE'];
  if (own !== undefined && own !== '') return path.resolve(own);
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && xdg !== '') return path.join(path.resolve(xdg), 'linkgate');
  return path.join(homedir(), '.cache', 'linkgate');
}

function folderName(spec: PackageSpec): string {
  const extra = (spec.with ?? []).map((w) => `+${w.replace(/^@/, '').replace(/\//g, '+')}`).join('');
  return `${spec.name.replace(/^@/, '').replace(/\//g, '+')}@${spec.version}${extra}`;
}

function run(
  file: string,
  args: readonly string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, env },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        const why = error !== null && error.killed ? `${stderr}\ntimed out after ${timeoutMs} ms` : stderr;
        resolve({ code, stdout: String(stdout), stderr: String(why) });
      },
    );
  });
}

// how long a `--version` may take before the part counts as not running: Gemini CLI 0.61 starts twice (it relaunches
// itself with a larger heap) and loads its bundle each time, 3 s of CPU that took 25-45 s on a 2-core machine at load 20
const versionCheckMs = 150_000;

async function verify(spec: PackageSpec, dir: string): Promise<HostInstall> {
  const bin = path.join(dir, spec.bin);
  if (!existsSync(bin)) return { ok: false, reason: `${spec.name}@${spec.version} has no \`${spec.bin}\`` };
  const [file, args] = spec.viaNode
    ? [process.execPath, [bin, ...spec.versionCheck.args]]
    : [bin, spec.versionCheck.args];
  // a throwaway HOME: hosts write their settings folders there, never into the shared install
  const home = await mkdtemp(path.join(tmpdir(), 'linkgate-version-'));
  const out = await run(file, args, versionCheckMs, { ...process.env, HOME: home, DISABLE_AUTOUPDATER: '1' }).finally(
    () => rm(home, { recursive: true, force: true }),
  );
  if (out.code !== 0 || !out.stdout.includes(spec.versionCheck.expect))
    return {
      ok: false,
      reason: `${spec.name}@${spec.version} does not run here: exit ${out.code}, ${lastLine(out.stderr || out.stdout)}`,
    };
  return { ok: true, bin, version: spec.version, dir };
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}

// npm's stderr ends with the path of its debug log; the reason is in its first `npm error` lines
function npmError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .filter((l) => l.startsWith('npm error') && !l.includes('A complete log of this run'))
    .map((l) => l.replace(/^npm error\s*/, ''))
    .filter((l) => l !== '' && !/^(syscall|errno) |^at |\{$/.test(l));
  return lines.length === 0 ? lastLine(stderr) : lines.slice(0, 2).join('; ').slice(0, 300);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// A lock directory: mkdir is atomic. A lock whose owner died on this host, or that is older than an install
// may take, is stale and removed.
export async function acquireLock(lock: string, deadline: number): Promise<boolean> {
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(path.join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname() }));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = await readFile(path.join(lock, 'owner.json'), 'utf8')
      .then((t) => JSON.parse(t) as { pid: number; host: string })
      .catch(() => undefined);
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    const dead = owner !== undefined && owner.host === hostname() && !alive(owner.pid);
    // an owner file not yet written is normal for a moment; missing for long means its writer died
    if (dead || age > installTimeoutMs + 60_000 || (owner === undefined && age > 10_000))
      await rm(lock, { recursive: true, force: true });
    else if (Date.now() > deadline) return false;
    else await new Promise((r) => setTimeout(r, lockPollMs));
  }
}

async function installLocked(
  spec: PackageSpec,
  root: string,
  final: string,
  env: NodeJS.ProcessEnv,
): Promise<HostInstall> {
  if (existsSync(final)) return verify(spec, final);
  const scratch = path.join(root, `.tmp-${folderName(spec)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(scratch, { recursive: true });
  try {
    // --prefix keeps it out of the project and out of the global folder; no scripts run (the binary needs none)
    const out = await run(
      'npm',
      [
        'install',
        '--prefix',
        scratch,
        '--no-save',
        '--no-package-lock',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=1000',
        '--fetch-retry-maxtimeout=3000',
        `${spec.name}@${spec.version}`,
        ...(spec.with ?? []),
      ],
      installTimeoutMs,
      env,
    );
    if (out.code !== 0)
      return { ok: false, reason: `npm install ${spec.name}@${spec.version} failed: ${npmError(out.stderr)}` };
    const checked = await verify(spec, scratch);
    if (!checked.ok) return checked;
    await rename(scratch, final);
    return { ok: true, bin: path.join(final, spec.bin), version: spec.version, dir: final };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const pending = new Map<string, Promise<HostInstall>>();

/** Installs `spec` into the cache once (shared by workers and checkouts), or says why it cannot; never throws. */
export function installPackage(spec: PackageSpec, env: NodeJS.ProcessEnv = process.env): Promise<HostInstall> {
  if (env['LINKGATE_REAL_HOST'] === 'skip')
    return Promise.resolve({ ok: false, reason: 'LINKGATE_REAL_HOST=skip is set' });
  const root = cacheDir(env);
  const key = `${root}\n${folderName(spec)}`;
  let done = pending.get(key);
  if (done === undefined) {
    done = (async (): Promise<HostInstall> => {
      const final = path.join(root, folderName(spec));
      try {
        if (existsSync(final)) return await verify(spec, final);
        await mkdir(root, { recursive: true });
        const lock = path.join(root, `${folderName(spec)}.lock`);
        if (!(await acquireLock(lock, Date.now() + installTimeoutMs)))
          return { ok: false, reason: `another process held ${lock} for longer than an install may take` };
        try {
          return await installLocked(spec, root, final, env);
        } finally {
          await rm(lock, { recursive: true, force: true });
        }
      } catch (e) {
        return { ok: false, reason: `installing ${spec.name}@${spec.version} failed: ${(e as Error).message}` };
      }
    })();
    pending.set(key, done);
  }
  return done;
}
