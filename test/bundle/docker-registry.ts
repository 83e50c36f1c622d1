// A real OCI registry on loopback for the bundle tests and the fleet bench: Debian's `docker-registry` (the CNCF
// distribution registry), installed on demand with apt when missing and this process may (root, apt-get present).
// One install per machine: a lock directory in the test cache keeps parallel workers from racing apt. Each registry
// gets its own storage folder and a free loopback port, and is stopped by its own `stop()`.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acquireLock, cacheDir, installTimeoutMs } from '../real-host/install-package.ts';

/** Where Debian's package puts the registry; `LINKGATE_DOCKER_REGISTRY` names another. */
export const debianRegistry = '/usr/bin/docker-registry';

/** The registry binary, or why there is none. */
export type RegistryBinary = { ok: true; bin: string } | { ok: false; reason: string };

function run(file: string, args: readonly string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: installTimeoutMs, killSignal: 'SIGKILL', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, out: `${String(stdout)}${String(stderr)}`.trim().split('\n').at(-1) ?? '' });
      },
    );
  });
}

async function aptInstall(): Promise<RegistryBinary> {
  const root = cacheDir();
  await mkdir(root, { recursive: true });
  const lock = path.join(root, 'apt-docker-registry.lock');
  if (!(await acquireLock(lock, Date.now() + installTimeoutMs)))
    return { ok: false, reason: `another process held ${lock} for longer than an install may take` };
  try {
    if (existsSync(debianRegistry)) return { ok: true, bin: debianRegistry };
    const update = await run('apt-get', ['update']);
    if (update.code !== 0) return { ok: false, reason: `apt-get update failed: ${update.out}` };
    const install = await run('apt-get', ['install', '-y', '--no-install-recommends', 'docker-registry']);
    if (install.code !== 0) return { ok: false, reason: `apt-get install docker-registry failed: ${install.out}` };
    return existsSync(debianRegistry)
      ? { ok: true, bin: debianRegistry }
      : { ok: false, reason: 'installed, not found' };
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

let pending: Promise<RegistryBinary> | undefined;

/** The registry binary, installed with apt on first need when missing (root only); never throws. */
export function registryBinary(): Promise<RegistryBinary> {
  pending ??= (async (): Promise<RegistryBinary> => {
    const own = process.env['LINKGATE_DOCKER_REGISTRY'];
    if (own !== undefined && own !== '')
      return existsSync(own) ? { ok: true, bin: own } : { ok: false, reason: `${own} not found` };
    if (existsSync(debianRegistry)) return { ok: true, bin: debianRegistry };
    if (process.getuid?.() !== 0) return { ok: false, reason: 'docker-registry is not installed and apt needs root' };
    if (!existsSync('/usr/bin/apt-get'))
      return { ok: false, reason: 'docker-registry is not installed and there is no apt-get' };
    return aptInstall();
  })();
  return pending;
}

/** A free TCP port on 127.0.0.1 (the kernel's pick; the registry binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A running registry: its `host:port`, and `stop()` which resolves once the process has exited. */
export interface LoopbackRegistry {
  readonly host: string;
  readonly process: ChildProcess;
  /** stops the process and removes its storage */
  stop(): Promise<void>;
  /** stops the process and keeps its storage: `restart()` serves it again on the same port */
  halt(): Promise<void>;
  restart(): Promise<LoopbackRegistry>;
}

/** Starts a registry with its own storage on a free loopback port; resolves when it logs that it listens. */
export async function startRegistry(bin: string, reuse?: { port: number; dir: string }): Promise<LoopbackRegistry> {
  const dir = reuse?.dir ?? (await mkdtemp(path.join(tmpdir(), 'linkgate-registry-')));
  const chosen = reuse?.port ?? (await freePort());
  const config = path.join(dir, 'config.yml');
  await writeFile(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: info',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${path.join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${chosen}`,
      '',
    ].join('\n'),
  );
  const child = spawn(bin, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('listening on')) resolve();
      if (log.length > 65_536) log = log.slice(-4096);
    });
    child.once('exit', (code) =>
      reject(new Error(`docker-registry exited (${String(code)}) before listening: ${log.slice(-500)}`)),
    );
  });
  const halt = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return {
    host: `127.0.0.1:${chosen}`,
    process: child,
    async stop() {
      await halt();
      await rm(dir, { recursive: true, force: true });
    },
    halt,
    restart: () => startRegistry(bin, { port: chosen, dir }),
  };
}
