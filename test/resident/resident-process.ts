// The resident server as a deployment runs it: started as root, bound to a privileged loopback port, then running as
// `nobody` for a gated user with no account (uid `gatedUid`, as `setpriv --reuid` runs it). Tests talk to it over
// real HTTP and run the gated user's attempts (bind the port, stop the server) as that uid with `setpriv`.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { runCli } from '../helpers/run-cli.ts';
import { repoRoot } from '../sdk/fake-gate.ts';

/** The gated user's uid in these tests: no account, not root, not `nobody`. */
export const gatedUid = 61234;

/** The `setpriv` options that run a command as the gated uid with no groups, then `caps` (capability options). */
export const asGatedUid = (...caps: string[]): string[] => [
  '--reuid',
  String(gatedUid),
  '--regid',
  String(gatedUid),
  '--clear-groups',
  ...caps,
];

/** `linkgate resident claude-code --print-config` on `port` for `gatedUser`, with `more` options (run in process). */
export const printConfig = (port: number | string, gatedUser: number | string, ...more: string[]) =>
  runCli([
    'resident',
    'claude-code',
    '--print-config',
    '--port',
    String(port),
    '--gated-user',
    String(gatedUser),
    ...more,
  ]);

/** The service user the server becomes. */
export const serviceUser = 'nobody';

/** True when this process may start the server the safe way (bind a privileged port, then become `nobody`). */
export const canStartAsRoot = process.getuid?.() === 0 && process.platform === 'linux';

// the Fetch standard's bad ports between 600 and 999
const fetchBlockedPorts: ReadonlySet<number> = new Set([601, 636, 989, 990, 993, 995]);

/** A privileged loopback port nothing listens on now (below 1024: `net.ipv4.ip_unprivileged_port_start` here). */
export async function freePrivilegedPort(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = 600 + Math.floor(Math.random() * 400);
    // ports the Fetch standard blocks (`fetch` fails with "bad port"), so the tests' own requests could not reach it
    if (fetchBlockedPorts.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free privileged port');
}

/** A running resident server process. */
export interface ResidentProcess {
  child: ChildProcess;
  port: number;
  secret: string;
  stderr: () => string;
  /** SIGTERM, and waits for the exit */
  stop(): Promise<number | null>;
}

/** `linkgate resident claude-code ARGS` from the sources, as its own process; `exited` when it did not start. */
export function spawnResident(args: readonly string[]): {
  child: ChildProcess;
  started: Promise<'listening' | { exited: number | null; stderr: string }>;
  stderr: () => string;
} {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), 'resident', 'claude-code', ...args],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  const started = new Promise<'listening' | { exited: number | null; stderr: string }>((resolve) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('listening on')) resolve('listening');
    });
    child.on('exit', (code) => resolve({ exited: code, stderr }));
  });
  child.stdout?.resume();
  return { child, started, stderr: () => stderr };
}

/** Starts the server on `port` for `gatedUid` as `nobody` with the default policy; throws with its stderr when it does not start. */
export async function startResidentProcess(
  port: number,
  dir: string,
  extra: readonly string[] = [],
): Promise<ResidentProcess> {
  const secretFile = path.join(dir, 'secret');
  const run = spawnResident([
    '--port',
    String(port),
    '--gated-user',
    String(gatedUid),
    '--user',
    serviceUser,
    '--secret-file',
    secretFile,
    '--policy',
    path.join(repoRoot, 'policies/default.yaml'),
    ...extra,
  ]);
  const started = await run.started;
  if (started !== 'listening') throw new Error(`the resident server did not start: ${started.stderr}`);
  const secret = (await readFile(secretFile, 'utf8')).trim();
  return {
    child: run.child,
    port,
    secret,
    stderr: run.stderr,
    stop: () =>
      new Promise((resolve) => {
        if (run.child.exitCode !== null) return resolve(run.child.exitCode);
        run.child.once('exit', (code) => resolve(code));
        run.child.kill('SIGTERM');
      }),
  };
}

/** Posts `body` to the server as Claude Code's HTTP hook does; the status and the body text. */
export async function postEvent(
  port: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/claude-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** Runs `node -e SCRIPT` as the gated uid (no account, no groups, no capabilities); its stdout, trimmed. */
export function asGatedUser(script: string): string {
  return execFileSync('setpriv', [...asGatedUid('--inh-caps=-all'), process.execPath, '-e', script], {
    encoding: 'utf8',
    cwd: '/',
  }).trim();
}
