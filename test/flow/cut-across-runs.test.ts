// The runs of a result's text items that spell a refused address only when joined (`joinedEdits`), as
// `judgeJsonTexts` finds them beside the refused link: each run withheld and nothing else, the searches near linear
// in the texts' characters however many runs there are (a search of everything after each run would be quadratic),
// and past the bound on searched characters every text item withheld (fails closed).
import { beforeAll, expect, test } from 'vitest';
import { judgeJsonTexts } from '../../src/flow/json-text-links.ts';
import { type RefusedRef, structuredLimits } from '../../src/flow/structured-links.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

let gate: Gate;
let refs: Map<string, RefusedRef>;
const uri = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
beforeAll(async () => {
  gate = createGate(await loadPolicy('policies/default.yaml'));
  const link = { type: 'resource_link', uri, name: 'creds' };
  const decision = gate.decideLink({ link, server: 'docs' });
  expect(decision.effect).toBe('deny');
  refs = new Map([[maskUri(uri), { ref: 'r1', link, decision }]]);
});

const prose = (text: string) => ({ type: 'text', text });
const notice = /^linkgate refused the link `creds`/;

test('300 cuts among 1 500 items: each cut withheld, every other item kept, searches near linear', async () => {
  const content: { type: string; text: string }[] = [];
  const cut = new Set<number>();
  for (let i = 0; i < 300; i++) {
    for (let j = 0; j < 3; j++) content.push(prose(`row ${i}.${j}: nothing to see here`));
    cut.add(content.length).add(content.length + 1);
    content.push(prose(`see ${uri.slice(0, 20 + (i % 30))}`), prose(`${uri.slice(20 + (i % 30))} now`));
  }
  const searched = { chars: 0 };
  const edits = await judgeJsonTexts(gate, content, { server: 'docs', mode: 'enforce', refs, searched }, true, true);
  expect(new Set(edits.map((e) => e.index))).toEqual(cut);
  for (const e of edits) expect(e.text).toMatch(notice);
  // each search costs its text twice: about ten passes over the whole (the windows, doubled and halved), not one per
  // run (a search of the rest after each of the 300: ~150)
  const chars = content.reduce((n, item) => n + item.text.length, 0);
  expect(searched.chars / (2 * chars)).toBeLessThan(25);
});

test('past the bound on searched characters: every text item is withheld', async () => {
  // the joined texts are searched within the bound; the searches for the runs pass it
  const long = 'a'.repeat(structuredLimits.maxSearchedChars / 5);
  const content = [prose(long), prose(`see ${uri.slice(0, 30)}`), prose(`${uri.slice(30)} now`), prose(long)];
  const edits = await judgeJsonTexts(gate, content, { server: 'docs', mode: 'enforce', refs }, true, true);
  expect(edits.map((e) => e.index).sort()).toEqual([0, 1, 2, 3]);
  for (const e of edits) expect(e.text).toMatch(/^linkgate (refused|withheld)/);
});
