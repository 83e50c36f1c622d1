// The searches for refused uris in a result's JSON texts are bounded for all the texts together (issue 39 item 1), by
// what the search costs: one automaton pass over each string as written and one read back, plus the automaton's build
// from the refused links' forms. The bound used to count strings × refused uris (and characters × refused uris), as
// if each string were compared with each uri, so 1 000 refused links withheld every JSON text past the tenth of 400
// short rows, which one pass searches in microseconds. Past the bound, texts are still withheld whole (fails closed).
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

function refusedRefs(count: number): Map<string, RefusedRef> {
  const refs = new Map<string, RefusedRef>();
  for (let i = 0; i < count; i++) {
    const link = { type: 'resource_link', uri: `file:///etc/secret${i}`, name: `f${i}` };
    const decision = gate.decideLink({ link, server: 'docs' });
    expect(decision.effect).toBe('deny');
    refs.set(maskUri(link.uri), { ref: `r${i}`, link, decision });
  }
  return refs;
}

const rowsText = (rows: readonly string[]) => ({ type: 'text', text: JSON.stringify({ rows }) });

test('1 000 refused uris and 20 JSON texts of 400 rows: every text is searched, none withheld', async () => {
  const refs = refusedRefs(1000);
  const rows = Array.from({ length: 399 }, (_, j) => `row ${j}`);
  const texts = Array.from({ length: 20 }, (_, i) =>
    rowsText(i === 0 || i === 19 ? [...rows.slice(1), 'see file:///etc/secret7'] : rows),
  );
  const edits = await judgeJsonTexts(gate, texts, { server: 'docs', mode: 'enforce', refs });
  expect(edits.filter((e) => e.text.includes(tooLargeNotice))).toEqual([]);
  // the first and the last text hold a refused uri: both have it replaced
  expect(edits.map((e) => e.index)).toEqual([0, 19]);
  for (const e of edits) expect(e.text).toMatch(/linkgate refused the link `f7`/);
});

test('past the searched characters for all the texts together, the texts after are withheld whole', async () => {
  const refs = refusedRefs(3);
  // each text costs a quarter of the bound (its string twice), and a little more: the fourth passes it
  const long = 'a'.repeat(structuredLimits.maxSearchedChars / 8);
  const texts = Array.from({ length: 5 }, (_, i) => rowsText(i === 0 ? ['see file:///etc/secret1', long] : [long]));
  const edits = await judgeJsonTexts(gate, texts, { server: 'docs', mode: 'enforce', refs });
  expect(edits.find((e) => e.index === 0)?.text).toMatch(/linkgate refused the link `f1`/);
  const withheld = edits.filter((e) => e.text.includes(tooLargeNotice)).map((e) => e.index);
  expect(withheld).toEqual([3, 4]);
});
