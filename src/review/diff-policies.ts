import type { Decision, Effect, Reason } from '../decision/decision.ts';
import type { Policy } from '../policy/policy.ts';
import type { CasesFile, PolicyCase } from './policy-cases.ts';
import { gateForCases, UniqueNames } from './run-cases.ts';
import { structuralDiff, type Direction, type SettingChange } from './structural-diff.ts';

const rank: Readonly<Record<Effect, number>> = { allow: 0, partial: 1, deny: 2 };

/** An item whose effect differs between the two decisions (absent on one side: null). */
export interface ItemChange {
  readonly index: number;
  readonly old: Effect | null;
  readonly new: Effect | null;
}

/** One replayed line whose decision differs: effects, reasons (`code` at `rule`) added and removed, items. */
export interface DecisionChange {
  readonly case: PolicyCase;
  /** the note, unique within the diff */
  readonly name: string;
  readonly old: Decision;
  readonly new: Decision;
  /** loosening: deny→allow, deny→partial, partial→allow, of the whole or of an item; tightening the reverse; neutral: only reasons moved */
  readonly direction: Direction;
  readonly reasonsAdded: readonly string[];
  readonly reasonsRemoved: readonly string[];
  readonly items: readonly ItemChange[];
}

/** Counts of a diff. */
export interface DiffSummary {
  readonly replayed: number;
  readonly changed: number;
  readonly tightened: number;
  readonly loosened: number;
  readonly reasonsOnly: number;
  readonly settingsChanged: number;
  readonly settingsLoosening: number;
}

/** Two policy versions replayed on the same lines, plus the structural diff of their documents. */
export interface PolicyDiff {
  readonly old: { readonly file: string; readonly policy: Policy };
  readonly new: { readonly file: string; readonly policy: Policy };
  readonly casesFiles: readonly string[];
  readonly changes: readonly DecisionChange[];
  readonly settings: readonly SettingChange[];
  readonly summary: DiffSummary;
}

/** True when the diff loosens anything: a decision or item moved toward allow, or a setting or rule loosened. */
export function diffLoosens(diff: PolicyDiff): boolean {
  return diff.summary.loosened > 0 || diff.summary.settingsLoosening > 0;
}

const reasonKey = (r: Reason): string => `${r.code} (${r.rule})`;

function multisetMinus(a: readonly string[], b: readonly string[]): string[] {
  const left = [...b];
  const out: string[] = [];
  for (const x of a) {
    const i = left.indexOf(x);
    if (i === -1) out.push(x);
    else left.splice(i, 1);
  }
  return out;
}

/** How the decision for one line moved; undefined when effect, reasons (by code and rule) and item effects are all equal. */
export function compareDecisions(
  before: Decision,
  after: Decision,
): Omit<DecisionChange, 'case' | 'name' | 'old' | 'new'> | undefined {
  const oldKeys = before.reasons.map(reasonKey);
  const newKeys = after.reasons.map(reasonKey);
  const reasonsAdded = multisetMinus(newKeys, oldKeys);
  const reasonsRemoved = multisetMinus(oldKeys, newKeys);
  const items: ItemChange[] = [];
  const count = Math.max(before.items?.length ?? 0, after.items?.length ?? 0);
  for (let index = 0; index < count; index++) {
    const a = before.items?.[index]?.effect ?? null;
    const b = after.items?.[index]?.effect ?? null;
    if (a !== b) items.push({ index, old: a, new: b });
  }
  if (before.effect === after.effect && reasonsAdded.length === 0 && reasonsRemoved.length === 0 && items.length === 0)
    return undefined;
  const looser =
    rank[after.effect] < rank[before.effect] ||
    items.some((i) => i.old !== null && i.new !== null && rank[i.new] < rank[i.old]);
  const tighter =
    rank[after.effect] > rank[before.effect] ||
    items.some((i) => i.old !== null && i.new !== null && rank[i.new] > rank[i.old]);
  // a looser whole or item is loosening even if something else got tighter: a reviewer must see it
  const direction: Direction = looser ? 'loosening' : tighter ? 'tightening' : 'neutral';
  return { direction, reasonsAdded, reasonsRemoved, items };
}

/** Replays every case input against both policies (names resolved only through each file's `resolve`) and diffs the documents. */
export async function diffPolicies(
  before: { file: string; policy: Policy },
  after: { file: string; policy: Policy },
  files: readonly CasesFile[],
): Promise<PolicyDiff> {
  const changes: DecisionChange[] = [];
  const names = new UniqueNames();
  let replayed = 0;
  for (const file of files) {
    const oldGate = gateForCases(before.policy, file);
    const newGate = gateForCases(after.policy, file);
    for (const c of file.cases) {
      replayed += 1;
      const name = names.take(c.note);
      const [o, n] = await Promise.all([oldGate.decide(c.input), newGate.decide(c.input)]);
      const change = compareDecisions(o, n);
      if (change !== undefined) changes.push({ case: c, name, old: o, new: n, ...change });
    }
  }
  const settings = structuralDiff(before.policy.document, after.policy.document);
  const count = (d: Direction) => changes.filter((c) => c.direction === d).length;
  const summary: DiffSummary = {
    replayed,
    changed: changes.length,
    tightened: count('tightening'),
    loosened: count('loosening'),
    reasonsOnly: count('neutral'),
    settingsChanged: settings.length,
    settingsLoosening: settings.filter((s) => s.direction === 'loosening').length,
  };
  return { old: before, new: after, casesFiles: files.map((f) => f.file), changes, settings, summary };
}
