// What the red team's rounds share in every file: each case keyed by name, `test.fails` while its key is open (a case
// that got through when the round was written, until its fix lands), the prose items and signal the cases hand over,
// and the adapters' stuck sink and quick policy.
import { test } from 'vitest';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { Policy } from '../../src/policy/policy.ts';
import type { RecordSink } from '../../src/record/record-sink.ts';
import { metadata, policyFile } from './scripted-host.ts';

/** The test function for a case's key: `test.fails` while the key is in `open`, `test` once it is mended. */
export const caseKeys = (open: ReadonlySet<string>) => (key: string) => (open.has(key) ? test.fails : test);

/** A text content item. */
export const prose = (text: string) => ({ type: 'text', text });

/** A sentence naming the refused metadata address, as a later server text would. */
export const told = `the keys are at ${metadata} now`;

/** Call options with a signal that is never aborted. */
export const signal = { signal: new AbortController().signal };

/** A records sink whose writes never settle (a stuck disk, a remote sink that never answers); it counts its writes. */
export function stuckSink(): RecordSink & { written: number } {
  const sink = {
    written: 0,
    write: () => {
      sink.written += 1;
      return new Promise<void>(() => {});
    },
    close: async () => {},
  };
  return sink;
}

/** The default policy with a 1.5 s read deadline, so a deadline that exists is met quickly. */
export async function quickPolicy(): Promise<Policy> {
  const policy = await loadPolicy(policyFile);
  return { ...policy, document: { ...policy.document, read: { ...policy.document.read, readTimeoutMs: 1500 } } };
}
