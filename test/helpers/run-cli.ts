import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/main.ts';

/** What a CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with `stdin` text and collects its output. */
export async function runCli(argv: readonly string[], stdin = '', env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await main(argv, {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout,
    stderr,
    env,
    stdoutIsTty: false,
    cwd: process.cwd(),
  });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/** Parses JSON Lines output. */
export function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as unknown);
}
