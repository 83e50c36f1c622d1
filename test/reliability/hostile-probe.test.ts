import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { policyFile, processesWith, recordsOf, runProbe, tsServer } from '../e2e/run-probe.ts';
import { leakedResources, processGone, resourceCensus, wireServerFile } from './wire-harness.ts';

/** Read deadline of the probe's policy, milliseconds. */
const readTimeoutMs = 1500;
/** Decoded read cap, bytes; the probe derives its stdio byte cap from it. */
const maxBytes = 256 * 1024;

const links = ['hostile://ok/a', 'hostile://garbage/silent', 'hostile://twice/x', 'hostile://flood/200'];

/** Pids still alive right after each probe returned, by server behaviour. */
const leftBehind = new Map<boolean, number[]>();

describe('linkgate probe against a hostile server', () => {
  // all four reads are in flight at once (the probe reads 4 at a time); the flood's one answer over the connection cap
  // ends that read alone, recorded `content.too-large` as in every front end, and the connection stays up, so the
  // silent read runs into its deadline (issue 39 item 4)
  test.each([
    {
      server: 'closes its output when the probe hangs up',
      stubborn: false,
      codes: [undefined, 'read.timeout', undefined, 'content.too-large'],
    },
    {
      server: 'ignores the hang-up and SIGTERM',
      stubborn: true,
      codes: [undefined, 'read.timeout', undefined, 'content.too-large'],
    },
  ])(
    'a flooding server that $server: records for every link, exit 0, within the deadline, no process left',
    async ({ stubborn, codes }) => {
      const policy = await policyFile({ readTimeoutMs, maxBytes });
      const marker = `linkgate-wire-${randomUUID()}`;
      const before = resourceCensus();
      const run = await runProbe(
        [
          '--policy',
          policy,
          '--tool',
          'links',
          '--args',
          JSON.stringify({ uris: links }),
          '--json',
          '--',
          ...tsServer(wireServerFile, marker),
        ],
        {
          env: stubborn ? { HOSTILE_STUBBORN: '1' } : {},
        },
      );
      expect(run.code, run.stderr).toBe(0);
      const records = recordsOf(run);
      expect(records.map((r) => r.uri)).toEqual(links);
      expect(records.map((r) => r.verdict)).toEqual(['body-obtained', 'unverifiable', 'body-obtained', 'unverifiable']);
      expect(records.map((r) => r.decisions.read?.reasons[0]?.code)).toEqual(codes);
      for (const r of records) expect(recordViolations(r), r.uri).toEqual([]);
      const alive = processesWith(marker);
      leftBehind.set(stubborn, alive);
      // the SDK's own shutdown (stdin end, SIGTERM after 2 s, SIGKILL after 2 s more) ends it while this process lives
      for (const pid of alive) expect(await processGone(pid, 6000)).toBe(true);
      expect(await leakedResources(before)).toEqual({});
    },
  );

  test('a server that closed its output leaves no process behind once the probe returns', () => {
    expect(leftBehind.get(false)).toEqual([]);
  });

  // when the SDK closes the stdio transport itself (a message over the byte cap) it forgets the child's pid and its own
  // kill timers are unref'd: the probe must keep the pid to SIGKILL a stubborn child before the CLI exits
  test('a stubborn server leaves no process behind once the probe returns', () => {
    expect(leftBehind.get(true)).toEqual([]);
  });
});
