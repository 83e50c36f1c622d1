import path from 'node:path';
import type { Decision, Effect, Reason } from '../../src/decision/decision.ts';
import type { ItemEvidence, ReadVerdict } from '../../src/gate/decide-read.ts';
import type { Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { buildPolicy, type Policy } from '../../src/policy/policy.ts';

/** The repository root, from this file's folder. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The shipped default policy with `read` settings overridden (e.g. a short deadline). */
export async function defaultPolicyWith(read: Partial<Policy['document']['read']> = {}): Promise<Policy> {
  const base = await loadPolicy(path.join(repoRoot, 'policies/default.yaml'));
  return buildPolicy({ ...structuredClone(base.document), read: { ...base.document.read, ...read } }, '<test>');
}

/** A decision with one reason per code (none for a silent allow). */
export function decision(
  policy: Policy,
  effect: Effect,
  codes: readonly string[] = [],
  items?: Decision['items'],
): Decision {
  const reasons: Reason[] = codes.map((code) => ({
    code: code as Reason['code'],
    rule: `test.${code}`,
    stage: 'read',
    message: `test reason \`${code}\``,
  }));
  return { effect, reasons, ...(items === undefined ? {} : { items }), policy: { ...policy.ref } };
}

/** Evidence for `count` items, as the content checks would give it. */
export function evidence(count: number, carrier: ItemEvidence['carrier'] = 'text'): ItemEvidence[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    carrier,
    bytes: 10 + index,
    declaredMime: 'text/plain',
    kind: 'text',
    sha256: `sha256:${'0'.repeat(63)}${index}`,
  }));
}

/** A gate whose link and read decisions come from the given functions; inputs are kept for assertions. */
export function fakeGate(
  policy: Policy,
  link: (input: Record<string, unknown>) => Decision,
  read: (input: Record<string, unknown>) => ReadVerdict,
): Gate & { linkInputs: Record<string, unknown>[]; readInputs: Record<string, unknown>[] } {
  const linkInputs: Record<string, unknown>[] = [];
  const readInputs: Record<string, unknown>[] = [];
  const decideLink = (input: unknown) => {
    linkInputs.push(input as Record<string, unknown>);
    return link(input as Record<string, unknown>);
  };
  const decideReadDetailed = async (input: unknown) => {
    readInputs.push(input as Record<string, unknown>);
    return read(input as Record<string, unknown>);
  };
  return {
    policy,
    linkInputs,
    readInputs,
    decideLink,
    decideCredential: () => decision(policy, 'deny', ['engine.error']),
    decideReadDetailed,
    decideRead: async (input) => (await decideReadDetailed(input)).decision,
    // embedded resources reach the fake read function as a one-item result, so one function scripts both
    decideEmbedded: async (resource) =>
      (await decideReadDetailed({ stage: 'read', result: { contents: [resource] } })).decision,
    decide: async (line) =>
      (line as { stage?: string }).stage === 'link' ? decideLink(line) : (await decideReadDetailed(line)).decision,
  };
}
