import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import type { Writable } from 'node:stream';
import { GateError } from '../errors.ts';
import { lineTransport, type LineTransport, type UnreadableLine } from './line-transport.ts';
import { errorLine } from '../decision/error-line.ts';

/** How long the server gets to exit after its stdin closes, then after SIGTERM, before the next step, milliseconds. */
export const serverExitGraceMs = 2000;

/** A started server process and the transport over its stdio. */
export interface ServerProcess {
  readonly transport: LineTransport;
  readonly pid: number;
  /**
   * the exit status: the code, or 128 + the signal number when a signal ended it; 0 when the SIGTERM of the proxy's
   * own shutdown ended it (it did not exit when its stdin closed)
   */
  readonly exited: Promise<number>;
  /** forwards a signal (SIGINT, SIGTERM) to the server */
  signal(signal: NodeJS.Signals): void;
}

/** Options of `spawnServer`: the command runs as given (no shell), with this environment and working directory. */
export interface SpawnServerOptions {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** where the server's stderr goes, unchanged */
  stderr: Writable;
  maxLineBytes: number;
  onUnreadable(line: UnreadableLine): void;
  /** refuse lines readers differ on (`LineTransportOptions.refuseAmbiguous`) */
  refuseAmbiguous?: boolean;
}

/** Starts COMMAND with its stdio piped; rejects with GateError `USAGE` when it cannot be started at all. */
export async function spawnServer(options: SpawnServerOptions): Promise<ServerProcess> {
  const child = spawn(options.command, [...options.args], {
    env: definedOnly(options.env),
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? 128 + signalNumber(signal)));
    child.once('error', () => resolve(2));
  });
  try {
    await Promise.race([
      once(child, 'spawn'),
      once(child, 'error').then(([error]: unknown[]) =>
        Promise.reject(error instanceof Error ? error : new Error(errorLine(error))),
      ),
    ]);
  } catch (error) {
    const detail = (error as NodeJS.ErrnoException).code ?? errorLine(error);
    throw new GateError('USAGE', `cannot start \`${options.command}\`: ${detail}`, { cause: error });
  }
  child.stderr.pipe(options.stderr, { end: false });
  // the server may exit while the proxy still writes: its stdin then reports EPIPE, which ends nothing else
  child.stdin.on('error', () => {});
  const pid = child.pid as number;
  let stopping: Promise<void> | null = null;
  // the signal the proxy's own shutdown sent (stdin closed, then SIGTERM, then SIGKILL, as the MCP stdio transport
  // says): a server that SIGTERM ended was shut down the normal way, so its exit status is 0, not 143; one that
  // needed SIGKILL ignored both and its status says so
  let shutdownSignal: NodeJS.Signals | null = null;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      for (const signal of [null, 'SIGTERM', 'SIGKILL'] as const) {
        if (signal !== null) {
          shutdownSignal = signal;
          child.kill(signal);
        }
        const timer = new Promise<'late'>((resolve) => setTimeout(resolve, serverExitGraceMs, 'late').unref());
        if ((await Promise.race([exited, timer])) !== 'late') return;
      }
    })();
    return stopping;
  };
  const transport = lineTransport({
    input: child.stdout,
    output: child.stdin,
    maxLineBytes: options.maxLineBytes,
    onUnreadable: (line) => options.onUnreadable(line),
    refuseAmbiguous: options.refuseAmbiguous === true,
    async onClose() {
      await stop();
    },
  });
  return {
    transport,
    pid,
    exited: exited.then(async (code) => {
      // the exit code is known before stdout has drained; wait for the pipes so no answer is lost
      if (!child.stdout.readableEnded) await once(child.stdout, 'close').catch(() => {});
      return shutdownSignal === 'SIGTERM' && code === 128 + signalNumber('SIGTERM') ? 0 : code;
    }),
    signal(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === null ? 0 : (constants.signals[signal] ?? 1);
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
