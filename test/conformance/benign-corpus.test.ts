import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { familyOf, kindOfMime } from '../../src/content/kinds.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

// Over-blocking conformance against ../shared/corpus/benign (issue 23, corpus README): ordinary files from
// well-known packages replayed as read results under policies/default.yaml. Outside CI the suite is skipped
// where the corpus is absent; in CI (`CI=true`) a missing corpus fails.
const repoRoot = path.resolve(import.meta.dirname, '../..');
const corpusDir = path.resolve(repoRoot, '../shared/corpus/benign');
const manifestFile = path.join(corpusDir, 'manifest.jsonl');
const hasCorpus = existsSync(manifestFile);

interface BenignCase {
  file: string;
  mimeType: string;
  source: string;
  kind: string;
  expect: 'allow' | 'deny';
  why?: string;
}

test('the benign corpus is present in CI', () => {
  if (process.env.CI === 'true') expect(hasCorpus, `${manifestFile} is missing`).toBe(true);
});

describe.skipIf(!hasCorpus)('benign corpus with policies/default.yaml', async () => {
  const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
  const cases = hasCorpus
    ? readFileSync(manifestFile, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as BenignCase)
    : [];

  test.each(cases.map((c) => [c.file, c] as const))('%s', async (_, c) => {
    const bytes = readFileSync(path.join(corpusDir, c.file));
    const declared = kindOfMime(c.mimeType);
    // text types as text, binary types as a base64 blob, as a server sends them
    const body =
      declared !== undefined && familyOf(declared.id) === 'text'
        ? { text: bytes.toString('utf8') }
        : { blob: bytes.toString('base64') };
    const uri = `guide://corpus/${path.basename(c.file)}`;
    const decision = await gate.decideRead({
      stage: 'read',
      link: { type: 'resource_link', uri, name: path.basename(c.file), mimeType: c.mimeType },
      result: { resultType: 'complete', contents: [{ uri, mimeType: c.mimeType, ...body }] },
    });
    const why = decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ');
    if (c.expect === 'allow') expect(decision.effect, `${c.source}: ${why}`).toBe('allow');
    else expect(decision.effect, `${c.source}: ${c.why ?? ''}`).not.toBe('allow');
  });
});
