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
    policy: {
      id: d.policy.id,
      version: d.policy.version,
      digest: d.policy.digest,
      ...(d.policy.bundleRevision === undefined ? {} : { bundleRevision: d.policy.bundleRevision }),
    },
  };
  if (d.items !== undefined) {
    const items = d.items.map((i) => ({ index: i.index, effect: i.effect, reasons: i.reasons.map(reason) }));
    return { effect: out.effect, reasons: out.reasons, items, policy: out.policy };
  }
  return out;
}
