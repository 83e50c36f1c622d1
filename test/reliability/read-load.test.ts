import { describe, expect, test } from 'vitest';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';
import { loadRound } from './load-run.ts';
import { connectWire, leakedResources, processGone, resourceCensus } from './wire-harness.ts';

/** Links in the one tool result. */
const linkCount = 1000;
/** How long the server holds each read, milliseconds. */
const slowMs = 5;
/** Total time for all reads of the tool result, milliseconds. */
const budgetMs = 15_000;
/** Most growth of the heap in use allowed over the run, bytes (1,000 records are a few MiB). */
const maxHeapGrowthBytes = 64 * 1024 * 1024;

describe('one tool result with 1,000 links against a local stdio server', () => {
  test.each([8, 32])(
    'concurrency %i: bounded reads in flight, a record for every link, within the budget, bounded memory',
    async (concurrency) => {
      const policy = await defaultPolicyWith({ readTimeoutMs: 5000 });
      const before = resourceCensus();
      const wire = await connectWire(policy);
      const heapBefore = process.memoryUsage().heapUsed;
      const round = await loadRound(wire, policy, { links: linkCount, slowMs, concurrency, budgetMs });

      expect(round.serverMaxInFlight).toBeLessThanOrEqual(concurrency);
      // the bound is reached, so the pool really runs `concurrency` reads at once
      expect(round.serverMaxInFlight).toBe(concurrency);
      expect(round.serverReads).toBe(linkCount);
      expect(round.links).toBe(linkCount);
      expect(round.sinkLines).toBe(linkCount);
      expect(round.verdicts['body-obtained']).toBe(linkCount);
      expect(round.heapUsed - heapBefore).toBeLessThan(maxHeapGrowthBytes);
      console.log(
        `load: ${linkCount} links at concurrency ${concurrency}: ${Math.round(round.elapsedMs)} ms, heap delta ${((round.heapUsed - heapBefore) / 1048576).toFixed(1)} MiB`,
      );

      await wire.close();
      expect(await processGone(wire.pid)).toBe(true);
      expect(await leakedResources(before)).toEqual({});
    },
  );

  test('a budget too small for 1,000 links: every link still gets a record, and the flow ends at the budget', async () => {
    const policy = await defaultPolicyWith({ readTimeoutMs: 5000 });
    const wire = await connectWire(policy);
    const tightBudgetMs = 400;
    const concurrency = 8;
    const round = await loadRound(wire, policy, { links: linkCount, slowMs: 20, concurrency, budgetMs: tightBudgetMs });
    await wire.close();

    expect(round.links).toBe(linkCount);
    expect(round.sinkLines).toBe(linkCount);
    // reads running when the budget ran out end unverifiable; links never read end link-only; none is lost
    expect(round.verdicts.unverifiable).toBeLessThanOrEqual(concurrency);
    expect(round.verdicts['body-obtained']).toBeGreaterThan(0);
    expect(round.verdicts['link-only']).toBe(linkCount - round.verdicts['body-obtained'] - round.verdicts.unverifiable);
    expect(round.verdicts['link-only']).toBeGreaterThan(linkCount / 2);
  });
});
