// The system's Chromium for browser tests: Debian's `chromium` package, installed on demand with apt when it is
// missing and this process may (root, apt-get present). One install per machine: a lock directory in the test cache
// keeps parallel workers and checkouts from racing apt. Never a project dependency; playwright-core only drives it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { acquireLock, cacheDir, installTimeoutMs } from '../real-host/install-package.ts';

/** A Chromium ready to launch, or why there is none (a one-line reason for the skip message). */
export type SystemChromium = { ok: true; bin: string; version: string } | { ok: false; reason: string };

/** Where Debian's package puts the browser; `LINKGATE_CHROMIUM` names another. */
export const debianChromium = '/usr/bin/chromium';

function run(file: string, args: readonly string[], timeoutMs: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
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

async function version(bin: string): Promise<SystemChromium> {
  const out = await run(bin, ['--version'], 30_000);
  return out.code === 0 && /chromium/i.test(out.out)
    ? { ok: true, bin, version: out.out.trim().split('\n')[0] ?? '' }
    : { ok: false, reason: `\`${bin} --version\` failed: ${lastLine(out.out)}` };
}

async function aptInstall(): Promise<SystemChromium> {
  const root = cacheDir();
  await mkdir(root, { recursive: true });
  const lock = path.join(root, 'apt-chromium.lock');
  if (!(await acquireLock(lock, Date.now() + installTimeoutMs)))
    return { ok: false, reason: `another process held ${lock} for longer than an install may take` };
  try {
    if (existsSync(debianChromium)) return await version(debianChromium);
    const update = await run('apt-get', ['update'], installTimeoutMs);
    if (update.code !== 0) return { ok: false, reason: `apt-get update failed: ${lastLine(update.out)}` };
    const install = await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], installTimeoutMs);
    if (install.code !== 0) return { ok: false, reason: `apt-get install chromium failed: ${lastLine(install.out)}` };
    return await version(debianChromium);
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

let pending: Promise<SystemChromium> | undefined;

/** The system Chromium, installed with apt on first need when missing (root only); never throws. */
export function systemChromium(): Promise<SystemChromium> {
  pending ??= (async (): Promise<SystemChromium> => {
    try {
      const own = process.env['LINKGATE_CHROMIUM'];
      if (own !== undefined && own !== '') return await version(own);
      if (existsSync(debianChromium)) return await version(debianChromium);
      if (process.getuid?.() !== 0) return { ok: false, reason: 'chromium is not installed and apt needs root' };
      if (!existsSync('/usr/bin/apt-get'))
        return { ok: false, reason: 'chromium is not installed and there is no apt-get' };
      return await aptInstall();
    } catch (e) {
      return { ok: false, reason: e instanceof Error ? e.message : String(e) };
    }
  })();
  return pending;
}
