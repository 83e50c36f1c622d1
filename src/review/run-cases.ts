import type { Decision, Reason } from '../decision/decision.ts';
import { createGate, type Gate } from '../gate/create-gate.ts';
import type { Policy } from '../policy/policy.ts';
import { coverageTargets } from './check-catalogue.ts';
import type { CasesFile, CaseWant, PolicyCase } from './policy-cases.ts';

/** The outcome of one case: the decision it got and each way it differs from what it wants (none: passed). */
export interface CaseResult {
  readonly case: PolicyCase;
  /** the note, made unique within the run (` (2)`, ` (3)` … on repeats) */
  readonly name: string;
  readonly got: Decision;
  readonly failures: readonly string[];
}

/** Rule coverage: `reason.rule` names the policy can raise (settings it contains, custom rules) and which fired in some case. */
export interface Coverage {
  readonly targets: readonly string[];
  readonly covered: readonly string[];
  readonly missed: readonly string[];
  /** covered ÷ targets × 100, rounded down to one decimal; 100 when there are no targets */
  readonly percent: number;
}

/** Every case of some case files run against one policy. */
export interface CasesRun {
  readonly policy: Policy;
  readonly results: readonly CaseResult[];
  readonly coverage: Coverage;
}

/** A gate for replaying a case file: names resolve only through the file's `resolve` map; never the network. */
export function gateForCases(policy: Policy, cases: CasesFile): Gate {
  const table = cases.resolve;
  if (table === null) return createGate(policy, { resolve: 'none' });
  return createGate(policy, { resolve: async (name) => table.get(name.toLowerCase()) ?? [] });
}

/** Runs every case of `files` against `policy`, in file order; never throws for a case (the gate fails closed). */
export async function runCases(policy: Policy, files: readonly CasesFile[]): Promise<CasesRun> {
  const results: CaseResult[] = [];
  const names = new UniqueNames();
  for (const file of files) {
    const gate = gateForCases(policy, file);
    for (const c of file.cases) {
      const got = await gate.decide(c.input);
      results.push({ case: c, name: names.take(c.note), got, failures: compareDecision(c.want, got) });
    }
  }
  return {
    policy,
    results,
    coverage: ruleCoverage(
      coverageTargets(policy.document),
      results.map((r) => r.got),
    ),
  };
}

/** Names made unique in order of arrival: a repeat gets ` (2)`, ` (3)`, … */
export class UniqueNames {
  private readonly used = new Set<string>();
  /** The next unused name for `note`. */
  take(note: string): string {
    let name = note;
    for (let n = 2; this.used.has(name); n++) name = `${note} (${n})`;
    this.used.add(name);
    return name;
  }
}

/** `reason.rule` of every reason of a decision and its items. */
export function firedRules(decision: Decision): Set<string> {
  const out = new Set<string>();
  const add = (reasons: readonly Reason[]) => reasons.forEach((r) => out.add(r.rule));
  add(decision.reasons);
  for (const item of decision.items ?? []) add(item.reasons);
  return out;
}

/** Which targets fired in some decision. */
export function ruleCoverage(targets: readonly string[], decisions: readonly Decision[]): Coverage {
  const fired = new Set<string>();
  for (const d of decisions) for (const rule of firedRules(d)) fired.add(rule);
  const covered = targets.filter((t) => fired.has(t));
  const missed = targets.filter((t) => !fired.has(t));
  const percent = targets.length === 0 ? 100 : Math.floor((covered.length / targets.length) * 1000) / 10;
  return { targets: [...targets], covered, missed, percent };
}

const list = (codes: readonly string[]): string =>
  codes.length === 0 ? 'none' : codes.map((c) => `\`${c}\``).join(', ');

/** How `got` differs from `want`, one lowercase line per difference; empty when it meets it. Reasons are a subset check. */
export function compareDecision(want: CaseWant, got: Decision): string[] {
  const failures: string[] = [];
  if (got.effect !== want.effect) failures.push(`effect: want \`${want.effect}\`, got \`${got.effect}\``);
  const gotCodes: string[] = got.reasons.map((r) => r.code);
  const missing = (want.reasons ?? []).filter((c) => !gotCodes.includes(c));
  if (missing.length > 0) failures.push(`reasons: want ${list(missing)} among them, got ${list(gotCodes)}`);
  for (const item of want.items ?? []) {
    const actual = got.items?.[item.index];
    if (actual === undefined) {
      failures.push(
        `items[${item.index}]: want an item, got ${got.items === undefined ? 'no items' : `${got.items.length} items`}`,
      );
      continue;
    }
    if (actual.effect !== item.effect)
      failures.push(`items[${item.index}].effect: want \`${item.effect}\`, got \`${actual.effect}\``);
    const itemCodes: string[] = actual.reasons.map((r) => r.code);
    const itemMissing = (item.reasons ?? []).filter((c) => !itemCodes.includes(c));
    if (itemMissing.length > 0)
      failures.push(`items[${item.index}].reasons: want ${list(itemMissing)} among them, got ${list(itemCodes)}`);
  }
  return failures;
}

/** What a case wants, on one line: `deny ⊇ [uri.userinfo]; items[0] allow`. */
export function describeWant(want: CaseWant): string {
  const parts = [
    `${want.effect}${want.reasons === undefined || want.reasons.length === 0 ? '' : ` ⊇ [${want.reasons.join(', ')}]`}`,
  ];
  for (const item of want.items ?? [])
    parts.push(
      `items[${item.index}] ${item.effect}${item.reasons === undefined ? '' : ` ⊇ [${item.reasons.join(', ')}]`}`,
    );
  return parts.join('; ');
}

/** What a decision is, on one line: `deny [uri.userinfo, uri.scheme-not-allowed]; items[0] allow`. */
export function describeGot(got: Decision): string {
  const parts = [`${got.effect} [${got.reasons.map((r) => r.code).join(', ')}]`];
  for (const item of got.items ?? []) parts.push(`items[${item.index}] ${item.effect}`);
  return parts.join('; ');
}
