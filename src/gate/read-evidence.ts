import { createHash } from 'node:crypto';
import type { Decision } from '../decision/decision.ts';
import type { ItemState } from './judge-items.ts';

/** What the read decision saw of one contents item; never the body itself. */
export interface ItemEvidence {
  index: number;
  carrier: 'text' | 'blob' | 'none';
  /** decoded bytes (utf-8 bytes for text) */
  bytes: number;
  /** declared mimeType of the item, normalized, or null */
  declaredMime: string | null;
  /** real kind id from our table (`png`, `text`, …) or `unknown` */
  kind: string;
  /** `sha256:<hex>` of the decoded bytes, null when not decoded (over cap, bad shape) */
  sha256: string | null;
}

/** A read decision with its per-item evidence (for records). */
export interface ReadVerdict {
  decision: Decision;
  evidence: ItemEvidence[];
}

// A verdict's item states until its evidence is first read: a private field (never enumerable, so a copy or JSON of
// the verdict has its evidence, never the states), and one shared accessor descriptor for every verdict, so making a
// verdict is one object and one `defineProperty` whose map transition V8 reuses (per-verdict descriptors through
// `Object.defineProperties` cost ~1.5 µs a read); `hasLazyEvidence` tells this module's verdicts apart by the field.
class LazyVerdict {
  #states: readonly ItemState[] | null;
  declare decision: Decision;
  declare evidence: ItemEvidence[];
  constructor(decision: Decision, states: readonly ItemState[]) {
    this.decision = decision;
    Object.defineProperty(this, 'evidence', lazyEvidence);
    this.#states = states;
  }
  /** the evidence, built from the states the first time it is read */
  static read(verdict: LazyVerdict): ItemEvidence[] {
    const evidence = (verdict.#states ?? []).map((s) => evidenceOf(s));
    LazyVerdict.write(verdict, evidence);
    return evidence;
  }
  /** `value` as the evidence from now on (a data member), the states released */
  static write(verdict: LazyVerdict, value: ItemEvidence[]): void {
    verdict.#states = null;
    Object.defineProperty(verdict, 'evidence', { value, writable: true, enumerable: true, configurable: true });
  }
  /** whether `value` is a verdict of this class whose evidence was not read yet */
  static lazy(value: object): boolean {
    return #states in value && value.#states !== null;
  }
}
const lazyEvidence: PropertyDescriptor = {
  get(this: LazyVerdict) {
    return LazyVerdict.read(this);
  },
  set(this: LazyVerdict, value: ItemEvidence[]) {
    LazyVerdict.write(this, value);
  },
  enumerable: true,
  configurable: true,
};

/** The verdict of `decision` over `states`; evidence is built when someone reads it (`gate.decideRead` drops it, records and reviews read it). */
export function verdictOf(decision: Decision, states: readonly ItemState[]): ReadVerdict {
  return new LazyVerdict(decision, states);
}

/** Whether `value`'s evidence is still this module's lazy one (an array once read), so a check need not build it. */
export function hasLazyEvidence(value: object): boolean {
  return LazyVerdict.lazy(value);
}

function evidenceOf(s: ItemState): ItemEvidence {
  const evidence: ItemEvidence = {
    index: s.inspected.index,
    carrier: s.inspected.carrier,
    bytes: s.inspected.ok ? s.inspected.bytes : 0,
    declaredMime: s.declaredMime,
    kind: s.kind,
    sha256: null,
  };
  if (s.decoded !== null) hashOnFirstRead(evidence, s.decoded);
  return evidence;
}

// hashing costs more than decoding, and `gate.decideRead` drops the evidence: the digest is computed the
// first time anyone reads it (JSON.stringify, spread and property access all do), then the bytes are released
function hashOnFirstRead(evidence: ItemEvidence, bytes: Buffer | (() => Buffer)): void {
  let pending: Buffer | (() => Buffer) | null = bytes;
  let digest: string | null = null;
  Object.defineProperty(evidence, 'sha256', {
    enumerable: true,
    configurable: true,
    get(): string | null {
      if (pending !== null) {
        digest = `sha256:${createHash('sha256')
          .update(typeof pending === 'function' ? pending() : pending)
          .digest('hex')}`;
        pending = null;
      }
      return digest;
    },
    set(value: string | null): void {
      pending = null;
      digest = value;
    },
  });
}
