// The command line of `linkgate hook HOST` the hook suites run: the default policy, with its state and records under
// the test's own folder.
import { join } from 'node:path';

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
