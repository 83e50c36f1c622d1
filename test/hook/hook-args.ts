// The command line of `linkgate hook HOST` the hook suites run: the default policy, with its state and records under
// the test's own folder; and that folder, made before each test and removed after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type CliRun, runCli } from '../helpers/run-cli.ts';

/** `hook HOST` arguments with the default policy, the state at `dir/state` and the records at `dir/records`. */
export const hookArgs = (host: string, dir: string, records = 'r.jsonl'): string[] => [
  'hook',
  host,
  '--policy',
  'policies/default.yaml',
  '--state',
  join(dir, 'state'),
  '--records',
  join(dir, records),
];

/** A suite's scratch folder (fresh for each test) and `hook HOST` run in-process over it (`hookArgs`, then `extra`). */
export interface HookScratch {
  /** the current test's folder */
  readonly dir: string;
  hook(host: string, event: unknown, ...extra: string[]): Promise<CliRun>;
}

/** Registers a scratch folder named `prefix…` under the system's temporary folder, made before and removed after each test. */
export function hookScratch(prefix: string): HookScratch {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return {
    get dir() {
      return dir;
    },
    hook: (host, event, ...extra) => runCli([...hookArgs(host, dir), ...extra], JSON.stringify(event)),
  };
}
