// Runs a host process to completion with a hard timeout that kills its whole process tree (the host and the
// MCP servers and hook commands it started), so a stuck host never hangs a test.
import { spawn } from 'node:child_process';

/** How a host process ended: exit code (`null` when killed), captured output, and whether the timeout hit. */
export interface ProcessRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** wall time from spawn to exit (milliseconds) */
  elapsedMs: number;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

/** Spawns `file args` in a new process group with exactly `env` (nothing inherited), closing stdin; kills the group at `timeoutMs` and once the leader exits. */
export function runProcess(
  file: string,
  args: readonly string[],
  options: { env: Record<string, string>; cwd: string; timeoutMs: number },
): Promise<ProcessRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    const onExit = () => killGroup(child.pid);
    process.once('exit', onExit);
    let finished = false;
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      process.off('exit', onExit);
      // MCP servers and hook commands the host left behind go with it
      killGroup(child.pid);
      const stderr = Buffer.concat(err).toString('utf8') + (spawnError === undefined ? '' : `\n${spawnError.message}`);
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr,
        timedOut,
        elapsedMs: Math.round(performance.now() - started),
      });
    };
    child.once('error', (e) => finish(null, null, e));
    // a descendant that kept the leader's stdout open would hold 'close' back; the group goes with the leader
    child.once('exit', () => killGroup(child.pid));
    child.once('close', (code, signal) => finish(code, signal));
  });
}
