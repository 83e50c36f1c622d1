import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Policy } from '../../src/policy/policy.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';
import { loadRound, type LoadRound } from '../reliability/load-run.ts';
import {
  connectWire,
  leakedResources,
  processGone,
  resourceCensus,
  type WireConnection,
} from '../reliability/wire-harness.ts';

/** Links in the big tool result. */
const bigLinks = 10_000;
/** Rounds of 1,000-link tool results, one after another on one connection. */
const rounds = 30;
/** Tool results gated at the same time on one connection, 500 links each. */
const parallelResults = 10;
/** Read deadline, milliseconds. */
const readTimeoutMs = 10_000;
/** Most heap growth allowed from the second round to the last (after a full gc each), bytes: a leak of one record per link would exceed it. */
const maxDriftBytes = 16 * 1024 * 1024;

let policy: Policy;
let wire: WireConnection;
let census: Record<string, number>;
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
const line = (label: string, r: LoadRound) =>
  `${label}: ${r.links} links in ${Math.round(r.elapsedMs)} ms (${Math.round((r.links / r.elapsedMs) * 1000)} links/s), heap ${mib(r.heapUsed)}, verdicts ${JSON.stringify(r.verdicts)}`;

beforeAll(async () => {
  policy = await defaultPolicyWith({ readTimeoutMs });
  census = resourceCensus();
  wire = await connectWire(policy);
});

afterAll(async () => {
  await wire.close();
  expect(await processGone(wire.pid)).toBe(true);
  expect(await leakedResources(census)).toEqual({});
});

describe('soak: many links, many rounds, many tool results on one stdio connection', () => {
  test('one tool result with 10,000 links', async () => {
    const r = await loadRound(wire, policy, { links: bigLinks, slowMs: 2, concurrency: 16, budgetMs: 120_000 });
    console.log(line('10k', r));
    expect(r.links).toBe(bigLinks);
    expect(r.sinkLines).toBe(bigLinks);
    expect(r.verdicts['body-obtained']).toBe(bigLinks);
    expect(r.serverMaxInFlight).toBeLessThanOrEqual(16);
  });

  test(`${rounds} rounds of 1,000 links: the heap does not drift`, async () => {
    const heaps: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const r = await loadRound(wire, policy, { links: 1000, slowMs: 1, concurrency: 16, budgetMs: 60_000, round: i });
      expect(r.verdicts['body-obtained']).toBe(1000);
      heaps.push(r.heapUsed);
      if (i === 0 || i === rounds - 1) console.log(line(`round ${i + 1}`, r));
    }
    const drift = (heaps.at(-1) ?? 0) - (heaps[1] ?? 0);
    console.log(`heap per round: ${heaps.map(mib).join(', ')}; drift from round 2 to ${rounds}: ${mib(drift)}`);
    expect(drift).toBeLessThan(maxDriftBytes);
  });

  test(`${parallelResults} tool results of 500 links gated at once`, async () => {
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: parallelResults }, (_, i) =>
        loadRound(wire, policy, { links: 500, slowMs: 2, concurrency: 8, budgetMs: 60_000, round: 1000 + i }),
      ),
    );
    const elapsedMs = performance.now() - started;
    console.log(
      `${parallelResults} parallel tool results × 500 links: ${Math.round(elapsedMs)} ms, server max in flight ${Math.max(...results.map((r) => r.serverMaxInFlight))}`,
    );
    for (const r of results) expect(r.verdicts['body-obtained']).toBe(500);
    expect(Math.max(...results.map((r) => r.serverMaxInFlight))).toBeLessThanOrEqual(parallelResults * 8);
  });
});
