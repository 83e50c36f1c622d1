import type { Decision } from './decision.ts';

/** A decision in the DESIGN §3 member order (`effect`, `reasons`, `items`?, `policy`), ready for JSON. */
export function decisionJson(d: Decision): Decision {
  const reason = (r: Decision['reasons'][number]) => ({
    code: r.code,
    rule: r.rule,
    stage: r.stage,
    message: r.message,
  });
  const out: Decision = {
    effect: d.effect,
    reasons: d.reasons.map(reason),
    policy: policyJson(d.policy),
  };
  if (d.items !== undefined) {
    const items = d.items.map((i) => ({ index: i.index, effect: i.effect, reasons: i.reasons.map(reason) }));
    return { effect: out.effect, reasons: out.reasons, items, policy: out.policy };
  }
  return out;
}

// set, not spread: a spread member costs more than the rest of the copy (two per read record)
function policyJson(policy: Decision['policy']): Decision['policy'] {
  const out: Decision['policy'] = { id: policy.id, version: policy.version, digest: policy.digest };
  if (policy.bundleRevision !== undefined) out.bundleRevision = policy.bundleRevision;
  return out;
}
