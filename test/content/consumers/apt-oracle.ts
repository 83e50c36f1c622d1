// A consumer that Debian packages (nbconvert, GLib's `gio`), as a test oracle: used where it is installed, else
// installed on demand with apt when this process may (root, apt-get present), one install per package and machine
// (a lock directory in the test cache; apt's own lock waited for). Never a project dependency.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { acquireLock, cacheDir, type HostInstall, installTimeoutMs } from '../../real-host/install-package.ts';

/** Runs `file` with `args` (never a shell); the exit code and what it printed. */
export function runOracle(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        timeout: options.timeoutMs ?? 120_000,
        killSignal: 'SIGKILL',
        maxBuffer: 32 * 1024 * 1024,
        env: options.env ?? process.env,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, out: `${String(stdout)}${String(stderr)}` });
      },
    );
  });
}

function lastLine(text: string): string {
  return (text.trim().split('\n').at(-1) ?? '').slice(0, 300);
}

/** The binary `bin` of Debian package `pkg`, installed with apt when missing; never throws. */
export async function aptOracle(pkg: string, bin: string): Promise<HostInstall> {
  const found = (): HostInstall => ({ ok: true, bin, version: pkg, dir: path.dirname(bin) });
  if (existsSync(bin)) return found();
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get'))
    return { ok: false, reason: `${bin} is missing and apt-get cannot install \`${pkg}\` here (not root)` };
  const root = cacheDir();
  await mkdir(root, { recursive: true });
  const lock = path.join(root, `apt-${pkg}.lock`);
  if (!(await acquireLock(lock, Date.now() + installTimeoutMs)))
    return { ok: false, reason: `another process held ${lock} for longer than an install may take` };
  try {
    if (existsSync(bin)) return found();
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const wait = ['-o', 'DPkg::Lock::Timeout=600'];
    const update = await runOracle('apt-get', [...wait, 'update'], { env, timeoutMs: installTimeoutMs });
    if (update.code !== 0) return { ok: false, reason: `apt-get update failed: ${lastLine(update.out)}` };
    const install = await runOracle('apt-get', [...wait, 'install', '-y', '--no-install-recommends', pkg], {
      env,
      timeoutMs: installTimeoutMs,
    });
    if (install.code !== 0) return { ok: false, reason: `apt-get install ${pkg} failed: ${lastLine(install.out)}` };
    return existsSync(bin) ? found() : { ok: false, reason: `\`${pkg}\` installed no ${bin}` };
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
