import { PassThrough, Readable } from 'node:stream';
import type { CliCommand } from '../../src/cli/cli-io.ts';
import { main } from '../../src/cli/main.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';

/** What a CLI run printed and returned, and how long it took (milliseconds). */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/** How to run a command: its stdin text, environment, whether stdout is a terminal, and its working directory. */
export interface CliRunOptions {
  stdin?: string;
  env?: Record<string, string | undefined>;
  tty?: boolean;
  cwd?: string;
}

/** Runs one CLI command in-process with captured streams. */
export async function runCommand(
  command: CliCommand,
  argv: readonly string[],
  options: CliRunOptions = {},
): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const started = performance.now();
  const code = await command(argv, {
    stdin: Readable.from([Buffer.from(options.stdin ?? '')]),
    stdout,
    stderr,
    env: options.env ?? {},
    stdoutIsTty: options.tty ?? false,
    cwd: options.cwd ?? process.cwd(),
  });
  const elapsedMs = Math.round(performance.now() - started);
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), elapsedMs };
}

/** Runs the whole CLI (`linkgate …`) in-process with `stdin` text and collects its output. */
export async function runCli(
  argv: readonly string[],
  stdin = '',
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  return runCommand(main, argv, { stdin, env });
}

/** Parses JSON Lines output. */
export function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as unknown);
}

/**
 * The link records of a records file's text (JSON Lines), without its embedded-resource records (`kind: "embedded"`)
 * and the discovery records a later record of the link supersedes (`kind: "discovered"`).
 */
export function linkRecordLines(text: string): unknown[] {
  return jsonLines(text).filter((r) => recordKindOf(r) === 'link');
}
