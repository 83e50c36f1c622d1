// The hook as a host runs it: one process per event, the event on stdin. A run that hangs is killed only past the
// host's own timeout (by then the host would have let the call through), so a test asserts on the answer.
import { spawn } from 'node:child_process';
import { hookTimeoutSeconds } from '../../src/hook/hook-settings.ts';

/** What one hook process printed, how it ended, and how long it took (milliseconds). */
export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/** How the host hands the event over: by default it writes `stdin` and closes it. */
export interface HookStdin {
  /** writes `stdin` and keeps the pipe open until the hook exits, as a host that stalls mid-event would */
  holdOpen?: boolean;
}

/** Runs `linkgate ARGS` (from the sources) as its own process with `stdin`; killed after the host's timeout. */
export function runHookProcess(args: readonly string[], stdin: string | Buffer, how: HookStdin = {}): Promise<HookRun> {
  return runHookCommand(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], stdin, how);
}

/** Runs `file ARGS` (never through a shell unless `file` is one) with `stdin`, as a host runs a hook command; killed after the host's timeout. */
export function runHookCommand(
  file: string,
  args: readonly string[],
  stdin: string | Buffer,
  how: HookStdin = {},
): Promise<HookRun> {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    // a ceiling that only ends a hung run: the host would have let the call through by then
    const ceiling = setTimeout(() => child.kill('SIGKILL'), hookTimeoutSeconds * 1000 + 5000);
    child.on('close', (code) => {
      clearTimeout(ceiling);
      done({ code, stdout, stderr, elapsedMs: Math.round(performance.now() - started) });
    });
    child.stdin.on('error', () => undefined);
    if (how.holdOpen === true) child.stdin.write(stdin);
    else child.stdin.end(stdin);
  });
}
