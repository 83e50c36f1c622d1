import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { probeCommand } from '../../src/cli/probe.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { runCommand, type CliRun } from '../helpers/run-cli.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';

/** What one probe run printed, its exit code and how long it took, milliseconds. */
export type ProbeRun = CliRun;

/** Runs `linkgate probe` in-process with captured streams, in the repository root, with the process environment. */
export async function runProbe(
  args: readonly string[],
  options: { env?: Record<string, string>; tty?: boolean } = {},
): Promise<ProbeRun> {
  return runCommand(probeCommand, args, {
    env: { ...process.env, ...options.env },
    tty: options.tty ?? false,
    cwd: repoRoot,
  });
}

/** The link records of a `--json` run (embedded records and the summary line carry a `kind`; link records do not). */
export function recordsOf(run: ProbeRun): LinkRecord[] {
  return jsonLinesOf(run).filter((l) => recordKindOf(l) === 'link') as unknown as LinkRecord[];
}

/** Every line of a `--json` run: link records, then embedded records, then the summary. */
export function jsonLinesOf(run: ProbeRun): Record<string, unknown>[] {
  return run.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Writes the default policy with `read` overrides to a temp file and returns its path. */
export async function policyFile(read: Record<string, unknown>): Promise<string> {
  const { parse } = await import('yaml');
  const doc = parse(await readFile(path.join(repoRoot, 'policies/default.yaml'), 'utf8')) as {
    read: Record<string, unknown>;
  };
  doc.read = { ...doc.read, ...read };
  const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-probe-'));
  const file = path.join(dir, 'policy.yaml');
  await writeFile(file, stringify(doc));
  return file;
}

/** Command line to run a TypeScript server file with this Node and tsx. */
export function tsServer(file: string, ...args: string[]): string[] {
  return [process.execPath, '--import', 'tsx', path.join(repoRoot, file), ...args];
}

/** Pids of live processes whose command line contains `marker` (Linux /proc). */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}
