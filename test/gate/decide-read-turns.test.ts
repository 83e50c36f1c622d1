// A read decision, once the read module is loaded, settles within two turns of the microtask queue: the gate calls the
// loaded module, not an await of its import per read, and `decideRead` makes no second async frame around
// `decideReadDetailed` (issue 42: the fixed cost of a 1 KiB read; each turn is a promise and a queued job). Counted
// in turns, not timed.
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

const uri = 'demo://resource/notes.txt';
const line = {
  stage: 'read',
  server: 'demo',
  readFrom: 'demo',
  link: { type: 'resource_link', uri, name: 'notes', mimeType: 'text/plain' },
  elapsedMs: 5,
  result: { resultType: 'complete', contents: [{ uri, mimeType: 'text/plain', text: 'hello' }] },
};

// the turns of the microtask queue until `decision` settles
async function turnsUntilSettled(decision: Promise<unknown>): Promise<number> {
  let settled = false;
  void decision.then(() => {
    settled = true;
  });
  let turns = 0;
  while (!settled && turns < 50) {
    await Promise.resolve();
    turns++;
  }
  return turns;
}

describe('a read decision settles within two turns once the read module is loaded', async () => {
  const gate = createGate(await loadPolicy('policies/default.yaml'));
  // the first read loads the module
  const first = await gate.decideRead(line);

  test('the first read loaded the module and allowed the text', () => {
    expect(first.effect).toBe('allow');
  });

  test.each([
    ['decideRead', () => gate.decideRead(line)],
    ['decideReadDetailed', () => gate.decideReadDetailed(line)],
    ['decide', () => gate.decide(line)],
  ])('%s', async (_, decide) => {
    const decision = decide();
    expect(await turnsUntilSettled(decision)).toBeLessThanOrEqual(2);
    expect(JSON.stringify(await decision)).toContain('allow');
  });
});
