import type { Readable, Writable } from 'node:stream';

/** The streams and environment a CLI command runs with; tests pass their own. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  /** true when stdout is a terminal (colour and tables for people) */
  stdoutIsTty: boolean;
  /** working directory that relative paths resolve against */
  cwd: string;
}

/** A CLI command: parses its own arguments and returns the exit code (0 ok, 1 findings, 2 usage or load errors). */
export type CliCommand = (args: readonly string[], io: CliIo) => Promise<number>;

/** The process's own streams as a CliIo. */
export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdoutIsTty: process.stdout.isTTY === true,
    cwd: process.cwd(),
  };
}
