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

// a verdict's item states until its evidence is first read (not enumerable: a copy or JSON of the verdict has its
// evidence, never this); one getter for every verdict, so `hasLazyEvidence` can tell this module's verdicts apart
const statesKey = Symbol('item states');
type LazyVerdict = ReadVerdict & { [statesKey]?: readonly ItemState[] };

function readEvidence(this: LazyVerdict): ItemEvidence[] {
  const evidence = (this[statesKey] ?? []).map((s) => evidenceOf(s));
  writeEvidence.call(this, evidence);
  return evidence;
}
function writeEvidence(this: LazyVerdict, value: ItemEvidence[]): void {
  delete this[statesKey];
  Object.defineProperty(this, 'evidence', { value, writable: true, enumerable: true, configurable: true });
}

/** The verdict of `decision` over `states`; evidence is built when someone reads it (`gate.decideRead` drops it, records and reviews read it). */
export function verdictOf(decision: Decision, states: readonly ItemState[]): ReadVerdict {
  const verdict = { decision } as LazyVerdict;
  Object.defineProperties(verdict, {
    evidence: { get: readEvidence, set: writeEvidence, enumerable: true, configurable: true },
    [statesKey]: { value: states, writable: true, configurable: true },
  });
  return verdict;
}

/** Whether `value`'s evidence is still this module's lazy one (an array once read), so a check need not build it. */
export function hasLazyEvidence(value: object): boolean {
  return Object.getOwnPropertyDescriptor(value, 'evidence')?.get === readEvidence;
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
