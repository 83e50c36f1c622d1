// The searches for refused uris in a result's JSON texts are bounded for all the texts together (issue 39 item 1).
// Each text was held to `maxComparisons` (strings × refused uris) on its own, so a hook event of 1 024 refused links
// and thousands of JSON texts (under the values cap for the first few hundred) searched 100 million times in one step
// no budget can interrupt: 2.4 s of CPU, and at load 21 the hook answered at its deadline, 15 s. Now the count is
// shared: the texts past it are withheld whole, the ones before it judged as before.
import { beforeAll, expect, test } from 'vitest';
import { judgeJsonTexts } from '../../src/flow/json-text-links.ts';
import { type RefusedRef, structuredLimits, tooLargeNotice } from '../../src/flow/structured-links.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

let gate: Gate;
beforeAll(async () => {
  gate = createGate(await loadPolicy('policies/default.yaml'));
});

test('refused uris are searched for in all the JSON texts of one result within one limit', async () => {
  const refusedCount = 1000;
  const refs = new Map<string, RefusedRef>();
  for (let i = 0; i < refusedCount; i++) {
    const link = { type: 'resource_link', uri: `file:///etc/secret${i}`, name: `f${i}` };
    const decision = gate.decideLink({ link, server: 'docs' });
    expect(decision.effect).toBe('deny');
    refs.set(maskUri(link.uri), { ref: `r${i}`, link, decision });
  }
  // each text alone is well under the limit; 20 together are over it
  // (each text walks its rows and its one key, `rows`)
  const strings = Math.floor(structuredLimits.maxComparisons / refusedCount / 10) - 1;
  const rows = Array.from({ length: strings }, (_, j) => `row ${j}`);
  const texts = Array.from({ length: 20 }, (_, i) => ({
    type: 'text',
    text: JSON.stringify({ rows: i === 0 ? [...rows.slice(1), 'see file:///etc/secret7'] : rows }),
  }));
  const edits = await judgeJsonTexts(gate, texts, { server: 'docs', mode: 'enforce', refs });
  const withheld = edits.filter((e) => e.text.includes(tooLargeNotice)).map((e) => e.index);
  // the first ten are searched (the one holding a refused uri has it replaced), the rest withheld whole, unsearched
  expect(edits.find((e) => e.index === 0)?.text).toMatch(/linkgate refused the link `f7`/);
  expect(withheld).toEqual(Array.from({ length: 10 }, (_, i) => i + 10));
});
