import type { PolicyRef } from '../decision/decision.ts';
import type { Explanation, ShownFact } from './explain.ts';

const statusText = { pass: 'pass', fail: 'FAIL', skip: 'skip', 'n/a': 'n/a ' } as const;

function fact(value: ShownFact): string {
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  return value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function facts(record: Readonly<Record<string, ShownFact>>): string {
  return Object.entries(record)
    .map(([k, v]) => `${k}=${fact(v)}`)
    .join(' ');
}

/** Text: the decision, the stage's facts, then one numbered line per check and rule with pass/FAIL/skip/n/a and what it read. */
export function formatExplainText(e: Explanation, policy: PolicyRef): string {
  const codes = e.decision.reasons.map((r) => r.code);
  const lines = [
    `explain: ${e.stage} line under policy ${policy.id} ${policy.version}`,
    `decision: ${e.decision.effect}${codes.length === 0 ? '' : ` [${codes.join(', ')}]`}`,
  ];
  for (const item of e.decision.items ?? [])
    lines.push(
      `  item ${item.index}: ${item.effect}${item.reasons.length === 0 ? '' : ` [${item.reasons.map((r) => r.code).join(', ')}]`}`,
    );
  if (Object.keys(e.facts).length > 0) lines.push(`facts: ${facts(e.facts)}`);
  const width = Math.max(...e.steps.map((s) => s.rule.length));
  e.steps.forEach((s, i) => {
    const effect = s.effect === undefined ? '' : ` (${s.effect})`;
    lines.push(`${String(i + 1).padStart(3)}. ${statusText[s.status]}  ${s.rule.padEnd(width)}  ${s.title}${effect}`);
    const read = facts(s.facts);
    if (read !== '') lines.push(`        reads ${read}`);
    for (const r of s.reasons) lines.push(`        → ${r.code}: ${r.message}`);
    if (s.why !== undefined) lines.push(`        ${s.why}`);
  });
  return `${lines.join('\n')}\n`;
}

/** JSON: the decision, facts and steps as one document. */
export function formatExplainJson(e: Explanation): string {
  return `${JSON.stringify(e, null, 2)}\n`;
}
