import type { ReasonCode } from './reason-codes.ts';

/** The outcome of one decision; deny beats partial beats allow. */
export type Effect = 'allow' | 'deny' | 'partial';

/** Where in the flow a reason was raised. */
export type ReasonStage = 'input' | 'link' | 'credential' | 'read' | 'content' | 'engine';

/** One machine-readable reason: `code` is stable API, `rule` names the policy setting or `rules.<id>`. */
export interface Reason {
  code: ReasonCode;
  rule: string;
  stage: ReasonStage;
  message: string;
}

/** The decision about one `contents` item of a read result; `index` is 0-based. */
export interface ItemDecision {
  index: number;
  effect: Effect;
  reasons: Reason[];
}

/** Which policy decided: its id, version and `sha256:<hex>` digest of the canonical form. */
export interface PolicyRef {
  id: string;
  version: string;
  digest: string;
  /** the revision of the signed bundle the policy came from (`--bundle`); absent for a policy file */
  bundleRevision?: number;
}

/** A decision exactly as DESIGN §3: `reasons` is empty only for a silent allow; `items` only on read decisions. */
export interface Decision {
  effect: Effect;
  reasons: Reason[];
  items?: ItemDecision[];
  policy: PolicyRef;
}

const rank: Record<Effect, number> = { allow: 0, partial: 1, deny: 2 };

/** The stronger of two effects: deny > partial > allow. */
export function strongerEffect(a: Effect, b: Effect): Effect {
  return rank[a] >= rank[b] ? a : b;
}

/** The combined effect of a list of reasons' effects, allow when empty. */
export function combineEffects(effects: Iterable<Effect>): Effect {
  let out: Effect = 'allow';
  for (const e of effects) out = strongerEffect(out, e);
  return out;
}
