// Conformance: ../shared/corpus/bytes (labelled files from the file-type repository and synthetic cases)
// through `createGate(default policy).decideRead`, mapped to read lines as corpus/README.md says.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Effect } from '../../src/decision/decision.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { hasShared } from '../helpers/shared-dir.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/bytes');
const casesFile = path.join(corpus, 'cases.jsonl');

interface ByteCase {
  id: string;
  file: string;
  declaredMime: string | null;
  trueKind: string;
  executable: boolean;
  expect: Effect;
  why: string;
  carrier: 'blob' | 'text';
}

/** Minimum share of cases decided exactly as labelled (corpus/README.md). */
const minExactShare = 0.97;

describe.skipIf(!hasShared('corpus/bytes/cases.jsonl'))('bytes corpus with policies/default.yaml', async () => {
  const cases: ByteCase[] = existsSync(casesFile)
    ? readFileSync(casesFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as ByteCase)
    : [];
  const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
  const outcomes: { c: ByteCase; effect: Effect }[] = [];

  async function decideCase(c: ByteCase): Promise<Effect> {
    const bytes = readFileSync(path.join(corpus, c.file));
    const uri = `guide://corpus/${c.id}`;
    const mime = c.declaredMime === null ? {} : { mimeType: c.declaredMime };
    const body = c.carrier === 'text' ? { text: bytes.toString('utf8') } : { blob: bytes.toString('base64') };
    const decision = await gate.decideRead({
      stage: 'read',
      link: { type: 'resource_link', uri, name: c.id, ...mime },
      result: { resultType: 'complete', contents: [{ uri, ...mime, ...body }] },
    });
    return decision.effect;
  }

  test.each(cases.map((c) => [c.id, c] as const))('%s', async (_, c) => {
    const effect = await decideCase(c);
    outcomes.push({ c, effect });
    // hard gates: nothing that should not be allowed is allowed; every executable is denied
    if (c.expect !== 'allow') expect(effect).not.toBe('allow');
    if (c.executable) expect(effect).toBe('deny');
  });

  afterAll(() => {
    const misses = outcomes.filter((o) => o.effect !== o.c.expect);
    const byKind = new Map<string, string[]>();
    for (const m of misses)
      byKind.set(m.c.trueKind, [
        ...(byKind.get(m.c.trueKind) ?? []),
        `${m.c.id} (want ${m.c.expect}, got ${m.effect})`,
      ]);
    const exact = outcomes.length - misses.length;
    console.log(
      `bytes corpus: ${exact}/${outcomes.length} exactly right (${((100 * exact) / Math.max(1, outcomes.length)).toFixed(1)}%)`,
    );
    for (const [kind, ids] of byKind) console.log(`  miss [${kind}]: ${ids.join(', ')}`);
    expect(exact / Math.max(1, outcomes.length)).toBeGreaterThanOrEqual(minExactShare);
  });
});
