import { describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { decideLinkLine, guardGate } from '../../src/flow/guard-gate.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';

// The guard over a gate that is not one of `createGate`'s own: made once per gate and policy, so a caller that hands
// the same gate for each link (`decideLinkLine`, 500 links of a tool result) does not build 500 guards; a gate that
// reloads its policy gets a guard that answers with the new one.

const link = { type: 'resource_link', uri: 'guide://docs/1', name: 'doc' };
const line = { stage: 'link', server: 'default', readFrom: 'default', link };

// a gate that is not `createGate`'s (its links are not decided at once), whose policy may be swapped, and which throws
// when told to
async function swappableGate(): Promise<{ gate: Gate; swap: (id: string) => Promise<void>; fail: () => void }> {
  const inner = createGate(await defaultPolicyWith());
  let policy = inner.policy;
  let failing = false;
  const gate: Gate = {
    get policy() {
      return policy;
    },
    decideLink: (input, reading) => {
      if (failing) throw new Error('boom');
      return inner.decideLink(input, reading);
    },
    decideCredential: (input) => inner.decideCredential(input),
    decideRead: (input) => inner.decideRead(input),
    decideReadDetailed: (input) => inner.decideReadDetailed(input),
    decideEmbedded: (resource) => inner.decideEmbedded(resource),
    decide: (input) => {
      if (failing) throw new Error('boom');
      return inner.decide(input);
    },
  };
  const swap = async (id: string) => {
    const next = await defaultPolicyWith();
    policy = { ...next, ref: { ...next.ref, id } };
  };
  return { gate, swap, fail: () => (failing = true) };
}

describe('guardGate', () => {
  test('the same gate and policy get the same guard', async () => {
    const { gate } = await swappableGate();
    const first = guardGate(gate);
    expect(guardGate(gate)).toBe(first);
    expect(guardGate(first)).toBe(first);
    // a guard with its own deadline is its own
    expect(guardGate(gate, 5)).not.toBe(first);
    const raw = createGate(await defaultPolicyWith());
    expect(guardGate(raw)).toBe(guardGate(raw));
  });

  test('a gate whose policy changed gets a guard with the new policy', async () => {
    const { gate, swap, fail } = await swappableGate();
    const before = guardGate(gate);
    await swap('reloaded');
    const after = guardGate(gate);
    expect(after).not.toBe(before);
    expect(after.policy.ref.id).toBe('reloaded');
    fail();
    const decision = await decideLinkLine(gate, line);
    expect(decision.effect).toBe('deny');
    expect(decision.reasons.map((r) => r.code)).toEqual(['engine.error']);
    expect(decision.policy.id).toBe('reloaded');
  });

  test('a throwing gate is an engine.error deny, decided at once or not', async () => {
    const { gate, fail } = await swappableGate();
    const allowed = await decideLinkLine(gate, line);
    expect(allowed.reasons.map((r) => r.code)).not.toContain('engine.error');
    fail();
    const guarded = guardGate(gate);
    expect(guarded.decideLink(line).reasons.map((r) => r.code)).toEqual(['engine.error']);
    expect((await guarded.decide(line)).reasons.map((r) => r.code)).toEqual(['engine.error']);
  });
});
