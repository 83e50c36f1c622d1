import { createGate, type Gate } from '../gate/create-gate.ts';
import { type LoadPolicyOptions, loadPolicy } from '../policy/load-policy.ts';
import type { Policy } from '../policy/policy.ts';

/** Where an in-process adapter takes its policy from: a file (loaded at the first event, with its options) or a policy. */
export interface LazyGateSource {
  policy: string | Policy;
  policyOptions?: LoadPolicyOptions;
}

/**
 * The gate an in-process adapter's events share, made at the first event. A failed load is not kept: the next event
 * tries again, and fails closed again while the file is broken.
 */
export function lazyGate(source: LazyGateSource): () => Promise<Gate> {
  let gate: Promise<Gate> | undefined;
  return () => {
    gate ??= loadGate(source).catch((error: unknown) => {
      gate = undefined;
      throw error;
    });
    return gate;
  };
}

async function loadGate(source: LazyGateSource): Promise<Gate> {
  const policy =
    typeof source.policy === 'string' ? await loadPolicy(source.policy, source.policyOptions ?? {}) : source.policy;
  return createGate(policy);
}
