import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGate } from '../../src/gate/create-gate.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import type { Policy } from '../../src/policy/policy.ts';
import type { Verdict } from '../../src/record/link-record.ts';
import { jsonLinesSink } from '../../src/record/record-sink.ts';
import type { WireConnection } from './wire-harness.ts';

/** What one loaded tool result cost and produced. */
export interface LoadRound {
  links: number;
  elapsedMs: number;
  /** records written to the JSON Lines sink */
  sinkLines: number;
  verdicts: Record<Verdict, number>;
  /** the most reads the server saw in flight at once (cumulative over the connection) */
  serverMaxInFlight: number;
  /** reads the server received so far on this connection */
  serverReads: number;
  /** heap in use after the round, bytes (after a full gc when `global.gc` is exposed) */
  heapUsed: number;
}

/** Sends one tool result with `links` slow links (`slowMs` each) through `gateToolResult` with a JSON Lines sink. */
export async function loadRound(
  wire: WireConnection,
  policy: Policy,
  options: { links: number; slowMs: number; concurrency: number; budgetMs: number; round?: number },
): Promise<LoadRound> {
  const uris = Array.from(
    { length: options.links },
    (_, i) => `hostile://slow/${options.slowMs}/r${options.round ?? 0}-${i}`,
  );
  const toolResult = await wire.links(uris);
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-load-')), 'records.jsonl');
  const sink = jsonLinesSink(file);
  const started = performance.now();
  const { records } = await gateToolResult(wire.client, toolResult, {
    gate: createGate(policy),
    concurrency: options.concurrency,
    budgetMs: options.budgetMs,
    sink,
    tool: 'links',
  });
  const elapsedMs = performance.now() - started;
  await sink.close();
  const sinkLines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '').length;
  const verdicts: Record<Verdict, number> = {
    'body-obtained': 0,
    'partially-interpreted': 0,
    'link-only': 0,
    unverifiable: 0,
  };
  for (const r of records) verdicts[r.verdict] += 1;
  const stats = (await wire.client.callTool({ name: 'stats' })).content as { text: string }[];
  const { reads, maxInFlight } = JSON.parse(stats[0]?.text ?? '{}') as { reads: number; maxInFlight: number };
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return {
    links: records.length,
    elapsedMs,
    sinkLines,
    verdicts,
    serverMaxInFlight: maxInFlight,
    serverReads: reads,
    heapUsed: process.memoryUsage().heapUsed,
  };
}
