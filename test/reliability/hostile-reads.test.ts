import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import type { Verdict } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { bodyOf } from '../fixtures/servers/stdio-lines.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';
import { connectWire, leakedResources, processGone, resourceCensus } from './wire-harness.ts';

/**
 * Read deadline of these tests, milliseconds: long enough for every healthy and slow-but-steady answer on a loaded
 * 2-core machine (timers there fire late, never early), short enough to keep the suite quick.
 */
const readTimeoutMs = 6000;
/**
 * Read deadline of the connection-killing cases, milliseconds: well under the 4 s the SDK takes to end a child that
 * ignores SIGTERM, so the stubborn flood's read ends by its deadline while the child is still there.
 */
const killerTimeoutMs = 1500;
/** Decoded read cap, bytes: small, so the stdio byte cap (base64 of it plus slack) is about 1.3 MiB. */
const maxBytes = 256 * 1024;
/** Size of the flood line, MiB. */
const floodMib = 200;

interface Expected {
  uri: string;
  verdict: Verdict;
  /** the read decision's first reason code, or null for an allow */
  code: string | null;
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

// one tool result, one server: every misbehaviour that leaves the connection usable, between healthy links
const mixed: readonly Expected[] = [
  { uri: 'hostile://ok/first', verdict: 'body-obtained', code: null },
  { uri: 'hostile://never/plain', verdict: 'unverifiable', code: 'read.timeout' },
  // the server answers this read with another resource's body (under its id): caught by the uri scope check
  { uri: 'hostile://never/victim', verdict: 'link-only', code: 'read.uri-mismatch' },
  { uri: 'hostile://steal/victim', verdict: 'unverifiable', code: 'read.timeout' },
  { uri: 'hostile://garbage/silent', verdict: 'unverifiable', code: 'read.timeout' },
  { uri: 'hostile://garbage/answer', verdict: 'body-obtained', code: null },
  { uri: 'hostile://wrong-id/x', verdict: 'unverifiable', code: 'read.timeout' },
  { uri: 'hostile://twice/x', verdict: 'body-obtained', code: null },
  { uri: 'hostile://error/-32603', verdict: 'unverifiable', code: 'read.error' },
  { uri: 'hostile://input/x', verdict: 'unverifiable', code: 'read.input-required' },
  { uri: 'hostile://unknown-type/x', verdict: 'unverifiable', code: 'read.result-type-unknown' },
  { uri: 'hostile://ok/last', verdict: 'body-obtained', code: null },
  // byte by byte: ~180 bytes at 1 ms each finish well inside the deadline even when each timer fires 20 ms late; at
  // 50 ms each (≥ 9 s, half again the deadline: a timer never fires early) beyond it
  { uri: 'hostile://bytewise/1/within', verdict: 'body-obtained', code: null },
  { uri: 'hostile://bytewise/50/beyond', verdict: 'unverifiable', code: 'read.timeout' },
];

describe('gateToolResult over the SDK Client and stdio against a hostile server', () => {
  test('each misbehaving read ends with its own reason, healthy links still complete, nothing leaks', async () => {
    const policy = await defaultPolicyWith({ readTimeoutMs, maxBytes });
    const before = resourceCensus();
    const host = new AbortController();
    const wire = await connectWire(policy);
    const { records, content } = await gateToolResult(wire.client, await wire.links(mixed.map((m) => m.uri)), {
      gate: createGate(policy),
      concurrency: mixed.length,
      signal: host.signal,
    });

    expect(records.map((r) => [r.uri, r.verdict, r.decisions.read?.reasons[0]?.code ?? null])).toEqual(
      mixed.map((m) => [m.uri, m.verdict, m.code]),
    );
    for (const r of records) expect(recordViolations(r), r.uri).toEqual([]);
    for (const r of records.filter((x) => x.verdict === 'unverifiable'))
      expect(r.next?.boundary, r.uri).toBe('origin-server');
    // the first answer wins: a second answer for the same id, or garbage around it, changes nothing
    for (const r of records.filter((x) => x.verdict === 'body-obtained'))
      expect(r.stages.received?.items[0]?.sha256, r.uri).toBe(sha256(bodyOf(r.uri)));
    const delivered = content
      .filter((c) => c['type'] === 'resource')
      .map((c) => (c['resource'] as { uri: string }).uri);
    expect(delivered).toEqual(mixed.filter((m) => m.verdict === 'body-obtained').map((m) => m.uri));
    // garbage and stray answers reached the host's error callback, and the connection still answers
    expect(wire.errors.length).toBeGreaterThanOrEqual(5);
    const stats = (await wire.client.callTool({ name: 'stats' })).content as { text: string }[];
    expect(JSON.parse(stats[0]?.text ?? '{}')).toMatchObject({ reads: mixed.length });

    await wire.close();
    expect(await processGone(wire.pid)).toBe(true);
    expect(getEventListeners(host.signal, 'abort')).toHaveLength(0);
    expect(await leakedResources(before)).toEqual({});
  });

  interface Killer {
    name: string;
    uri: string;
    stubborn: boolean;
    /** the killing link's reason code */
    code: string;
  }
  // misbehaviours that end the connection: the link after the killer is read on a dead connection
  const killers: readonly Killer[] = [
    {
      name: 'a 200 MiB line (closes its output when asked)',
      uri: `hostile://flood/${floodMib}`,
      stubborn: false,
      code: 'read.error',
    },
    {
      name: 'a 200 MiB line (ignores the hang-up and SIGTERM)',
      uri: `hostile://flood/${floodMib}`,
      stubborn: true,
      code: 'read.timeout',
    },
    { name: 'closing stdout mid-message', uri: 'hostile://close/x', stubborn: false, code: 'read.error' },
    { name: 'crashing (exit 1) mid-read', uri: 'hostile://crash/x', stubborn: false, code: 'read.error' },
  ];

  test.each(killers)(
    '$name: the host stays up, the byte cap holds, later links fail fast and the child is gone',
    async ({ uri, stubborn, code }) => {
      const policy = await defaultPolicyWith({ readTimeoutMs: killerTimeoutMs, maxBytes });
      const before = resourceCensus();
      const wire = await connectWire(policy, { stubborn });
      const baseRss = process.memoryUsage.rss();
      let peakRss = baseRss;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
      const uris = ['hostile://ok/before', uri, 'hostile://ok/after'];
      const { records } = await gateToolResult(wire.client, await wire.links(uris), {
        gate: createGate(policy),
        concurrency: 1,
      });
      clearInterval(sampler);

      expect(records.map((r) => r.verdict)).toEqual(['body-obtained', 'unverifiable', 'unverifiable']);
      expect(records.map((r) => r.decisions.read?.reasons[0]?.code)).toEqual([undefined, code, 'read.error']);
      expect(records[2]?.decisions.read?.reasons[0]?.message).toMatch(/not connected|connection closed/);
      for (const r of records) expect(recordViolations(r), r.uri).toEqual([]);

      const events = await wire.events();
      const flood = events.find((e) => e.event === 'flood-stopped');
      if (uri.includes('flood')) {
        // a 200 MiB line must never be held whole: the host's memory grows by far less than the line
        expect(peakRss - baseRss).toBeLessThan(120 * 1024 * 1024);
        expect(wire.errors.some((e) => /exceeded maximum size/.test(e.message))).toBe(true);
      }
      await wire.close();
      // the SDK's own shutdown ends a stubborn child with SIGKILL after 2 s + 2 s
      expect(await processGone(wire.pid, stubborn ? 6000 : 3000)).toBe(true);
      if (stubborn) expect((await wire.events()).some((e) => e.event === 'sigterm-ignored')).toBe(true);
      else if (flood !== undefined) expect(flood.written).toBeLessThan(16 * 1024 * 1024);
      expect(await leakedResources(before)).toEqual({});
    },
  );
});
