import { GateError } from '../errors.ts';

/**
 * Bytes of an event from which the hook command judges it in a child process it can kill (`judgeInChild`): one
 * synchronous step over a large event (a `JSON.parse`, a pass over half a million items) can outlast the hook's own
 * deadline, whose timer cannot fire while the step runs. Below this no step costs more than a fraction of the
 * deadline, and a small event starts no second process.
 */
export const childJudgedFromBytes = 4 * 1024 * 1024;

// set in the child's environment: the child judges the event itself
const childVariable = 'LINKGATE_HOOK_CHILD';

/** What the child printed and how it ended. */
export interface ChildRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Whether this event is judged in a child process: a large event, when this process runs the hook command as itself
 * (`linkgate hook …` on its own command line, the process's own stdout) and is no such child already.
 */
export function judgesInChild(eventBytes: number, ownStdout: boolean): boolean {
  return (
    eventBytes >= childJudgedFromBytes &&
    ownStdout &&
    process.argv[2] === 'hook' &&
    process.env[childVariable] === undefined
  );
}

/**
 * Runs this process's own command line again as a child with `event` on its stdin, and resolves with what it printed
 * once it ended by itself (exit 0, or 2 as the hook's own failure). Killed (`SIGKILL`, which no step can hold off) when
 * `signal` aborts: the hook's deadline, after which this process answers fail-closed from the event's small members.
 * A child that ends any other way (killed, out of memory) rejects, which fails the event closed too.
 */
export async function judgeInChild(event: string, signal: AbortSignal): Promise<ChildRun> {
  // loaded only for a large event: a small one starts no process and loads nothing for it
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      env: { ...process.env, [childVariable]: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
      signal,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) =>
      reject(new GateError('READ_FAILED', `the hook's judging process failed: ${error.message}`, { cause: error })),
    );
    child.on('close', (code, killed) => {
      if (code === 0 || code === 2)
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
      else reject(new GateError('READ_FAILED', `the hook's judging process ended with \`${killed ?? code}\``));
    });
    child.stdin.end(event);
  });
}
