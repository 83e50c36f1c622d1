// A read the host altered before the gate saw it (Codex's cut body, Gemini CLI's blob placeholder) has its JSON bodies
// judged for links as an unaltered read's are (read-body-links.ts): under `overCap: partial` a cut item is dropped and
// the rest delivered, so a JSON text beside it holding a refused link must reach the host with the link replaced.
import { describe, expect, test } from 'vitest';
import { judgeAlteredRead } from '../../src/flow/host-altered-read.ts';
import { discoverLink, startLink } from '../../src/flow/link-steps.ts';
import { readBodyJudge } from '../../src/flow/read-body-links.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { flowContext } from './flow-context.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';

const context = flowContext;
const at = new Date('2026-12-07T04:00:00Z');
const doc = 'https://docs.example/r.json';
const hostPath = '169.254.169.254/latest';
const body = JSON.stringify({
  content: [{ type: 'resource_link', uri: `http://${hostPath}/meta-data/`, name: 'next', mimeType: 'text/plain' }],
});
const contents = [
  { uri: doc, mimeType: 'application/json', text: body },
  { uri: doc, mimeType: 'text/plain', text: 'the start…12 chars truncated…the end' },
];
const altered = { cut: new Set([1]), replaced: new Set<number>(), note: "Codex's `…12 chars truncated…`" };

describe('a read the host cut, under overCap: partial', () => {
  test('the JSON body beside the cut item is delivered with its refused link replaced by its notice', async () => {
    const gate = createGate(await defaultPolicyWith({ overCap: 'partial' }));
    const link = { type: 'resource_link', uri: doc, name: 'r', mimeType: 'application/json' };
    const step = await startLink(gate, { link, discovered: discoverLink(link, 0, context, at), linkServer: 'docs' });
    const timing = { requested: null, elapsedMs: 1, now: () => at };
    const judged = await judgeAlteredRead(gate, step, { contents }, altered, timing, readBodyJudge(gate));
    expect(judged.deliver).toEqual([0]);
    const delivered = JSON.stringify(judged.delivered);
    expect(delivered).not.toContain(hostPath);
    expect(delivered).toContain('linkgate refused the link `next`');
    expect(judged.decision.effect).toBe('partial');
    expect(recordViolations(judged.record)).toEqual([]);
    // without the body judgement the address went on: what the hook handed Codex before
    const unjudged = await judgeAlteredRead(gate, step, { contents }, altered, timing);
    expect(JSON.stringify(unjudged.delivered)).toContain(hostPath);
  });
});
