import { describe, expect, it } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { buildPolicy } from '../../src/policy/policy.ts';
import { policySchema } from '../../src/policy/policy-schema.ts';
import { baseDocument } from './policy-fixture.ts';

const gateWith = (hook: Record<string, unknown> | undefined) =>
  createGate(buildPolicy(policySchema.parse({ ...baseDocument, ...(hook === undefined ? {} : { hook }) }), 'test'));

const line = (discovered?: boolean) => ({
  stage: 'link',
  server: 'docs',
  link: { type: 'resource_link', uri: 'internal://keys', name: 'keys' },
  ...(discovered === undefined ? {} : { discovered }),
});

describe('hook.requireDiscovered', () => {
  it.each([
    { hook: { requireDiscovered: true }, discovered: false, want: 'deny' },
    { hook: { requireDiscovered: true }, discovered: true, want: 'allow' },
    // absent `discovered`: the caller does not know (eval, probe, proxy links come from a tool result)
    { hook: { requireDiscovered: true }, discovered: undefined, want: 'allow' },
    { hook: { requireDiscovered: false }, discovered: false, want: 'allow' },
    { hook: undefined, discovered: false, want: 'allow' },
  ])('$hook with discovered=$discovered → $want', async ({ hook, discovered, want }) => {
    const gate = gateWith(hook);
    const sync = gate.decideLink(line(discovered));
    expect(sync.effect).toBe(want);
    expect((await gate.decide(line(discovered))).effect).toBe(want);
    if (want === 'deny') {
      expect(sync.reasons).toEqual([
        expect.objectContaining({ code: 'link.not-discovered', rule: 'hook.requireDiscovered', stage: 'link' }),
      ]);
    }
  });

  it('rejects a `discovered` that is not a boolean, naming the field', () => {
    const decision = gateWith({ requireDiscovered: true }).decideLink({ ...line(), discovered: 'no' });
    expect(decision.reasons[0]).toMatchObject({ code: 'input.invalid' });
    expect(decision.reasons[0]?.message).toContain('`discovered`');
  });
});
