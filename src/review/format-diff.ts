import type { DecisionChange, PolicyDiff } from './diff-policies.ts';
import { diffLoosens } from './diff-policies.ts';
import type { Direction, SettingChange } from './structural-diff.ts';

const label: Readonly<Record<Direction, string>> = {
  loosening: 'LOOSENED',
  tightening: 'tightened',
  neutral: 'reasons',
};
const settingLabel: Readonly<Record<Direction, string>> = {
  loosening: 'LOOSENING',
  tightening: 'tightening',
  neutral: 'neutral',
};
const sign: Readonly<Record<SettingChange['kind'], string>> = { added: '+', removed: '-', changed: '~' };

/** A setting value on one line: scalars as JSON, rules and mappings as compact JSON cut to `maxValueChars`. */
export const maxValueChars = 120;
function value(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > maxValueChars ? `${text.slice(0, maxValueChars - 1)}…` : text;
}

function settingText(s: SettingChange): string {
  if (s.kind === 'changed') return `${s.path}: ${value(s.old)} → ${value(s.new)}`;
  return `${s.path}: ${value(s.kind === 'added' ? s.new : s.old)}`;
}

/** Item changes with runs of consecutive indexes that moved the same way folded: `items[0..16] allow → deny`. */
function itemsText(c: DecisionChange): string {
  const parts: string[] = [];
  let i = 0;
  while (i < c.items.length) {
    const first = c.items[i] as DecisionChange['items'][number];
    let j = i;
    while (j + 1 < c.items.length) {
      const next = c.items[j + 1] as DecisionChange['items'][number];
      if (next.index !== first.index + (j + 1 - i) || next.old !== first.old || next.new !== first.new) break;
      j += 1;
    }
    const last = c.items[j] as DecisionChange['items'][number];
    const range = j === i ? `${first.index}` : `${first.index}..${last.index}`;
    parts.push(`items[${range}] ${first.old ?? 'none'} → ${first.new ?? 'none'}`);
    i = j + 1;
  }
  return parts.join(', ');
}

function reasonsText(c: DecisionChange): string {
  return [...c.reasonsAdded.map((r) => `+${r}`), ...c.reasonsRemoved.map((r) => `-${r}`)].join(' ');
}

function title(diff: PolicyDiff): string {
  const ref = (side: PolicyDiff['old']) => `${side.file} (${side.policy.ref.id} ${side.policy.ref.version})`;
  return `${ref(diff.old)} → ${ref(diff.new)}`;
}

function summaryLine(diff: PolicyDiff): string {
  const s = diff.summary;
  return (
    `replayed ${s.replayed} lines from ${diff.casesFiles.join(', ')}: ${s.changed} changed, ${s.tightened} tightened, ${s.loosened} loosened, ${s.reasonsOnly} with other reasons only; ` +
    `${s.settingsChanged} setting and rule changes, ${s.settingsLoosening} loosening`
  );
}

/** Text: title, summary, then each changed decision and each setting change, loosening marked in capitals. */
export function formatDiffText(diff: PolicyDiff): string {
  const lines = [`linkgate diff: ${title(diff)}`, summaryLine(diff)];
  if (diff.changes.length > 0) {
    lines.push('', 'decisions:');
    for (const c of diff.changes) {
      lines.push(
        `  ${label[c.direction].padEnd(9)} ${c.case.file}:${c.case.line}: ${c.name}: ${c.old.effect} → ${c.new.effect}`,
      );
      const reasons = reasonsText(c);
      if (reasons !== '') lines.push(`            reasons ${reasons}`);
      if (c.items.length > 0) lines.push(`            ${itemsText(c)}`);
    }
  }
  if (diff.settings.length > 0) {
    lines.push('', 'settings and rules:');
    for (const s of diff.settings)
      lines.push(`  ${settingLabel[s.direction].padEnd(10)} ${sign[s.kind]} ${settingText(s)}`);
  }
  lines.push(
    '',
    diffLoosens(diff)
      ? 'verdict: LOOSENS the policy: it needs a new review (signatures of the new file, docs/reviews.md)'
      : diff.summary.changed + diff.summary.settingsChanged === 0
        ? 'verdict: no change'
        : 'verdict: does not loosen the policy',
  );
  return `${lines.join('\n')}\n`;
}

/** JSON: both policy identities, the summary, every decision change (with both decisions' codes) and every setting change. */
export function formatDiffJson(diff: PolicyDiff): string {
  const side = (d: PolicyDiff['old']) => ({ file: d.file, ...d.policy.ref });
  const brief = (d: DecisionChange['old']) => ({
    effect: d.effect,
    reasons: d.reasons.map((r) => ({ code: r.code, rule: r.rule })),
    ...(d.items === undefined ? {} : { items: d.items.map((i) => ({ index: i.index, effect: i.effect })) }),
  });
  const out = {
    old: side(diff.old),
    new: side(diff.new),
    cases: diff.casesFiles,
    loosens: diffLoosens(diff),
    needsReview: diffLoosens(diff),
    summary: diff.summary,
    decisions: diff.changes.map((c) => ({
      name: c.name,
      file: c.case.file,
      line: c.case.line,
      direction: c.direction,
      input: c.case.input,
      old: brief(c.old),
      new: brief(c.new),
      reasonsAdded: c.reasonsAdded,
      reasonsRemoved: c.reasonsRemoved,
      items: c.items,
    })),
    settings: diff.settings,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

// table cells: one line, pipes escaped, backticks kept for code
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** Markdown for a security review: identities and digests, summary table, decision changes, setting changes. */
export function formatDiffMarkdown(diff: PolicyDiff): string {
  const s = diff.summary;
  const loosens = diffLoosens(diff);
  const lines = [
    `# Policy change: \`${diff.old.policy.ref.id}\` ${diff.old.policy.ref.version} → \`${diff.new.policy.ref.id}\` ${diff.new.policy.ref.version}`,
    '',
    loosens
      ? `> **This change loosens the policy**: ${s.loosened} replayed decision(s) and ${s.settingsLoosening} setting or rule change(s) let more through. Each needs a reviewer's sign-off: a new review signature of the new file (docs/reviews.md).`
      : '> This change does not loosen the policy on the replayed lines or in its settings.',
    '',
    '| | old | new |',
    '|---|---|---|',
    `| file | \`${cell(diff.old.file)}\` | \`${cell(diff.new.file)}\` |`,
    `| digest | \`${diff.old.policy.ref.digest}\` | \`${diff.new.policy.ref.digest}\` |`,
    `| review | ${cell(diff.old.policy.document.review.ticket)}, expires ${diff.old.policy.document.review.expires} | ${cell(diff.new.policy.document.review.ticket)}, expires ${diff.new.policy.document.review.expires} |`,
    '',
    '## Summary',
    '',
    '| replayed | changed | tightened | loosened | reasons only | setting changes | loosening settings |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${s.replayed} | ${s.changed} | ${s.tightened} | ${s.loosened} | ${s.reasonsOnly} | ${s.settingsChanged} | ${s.settingsLoosening} |`,
    '',
    `Replayed lines: ${diff.casesFiles.map((f) => `\`${cell(f)}\``).join(', ')}.`,
    '',
    '## Changed decisions',
    '',
  ];
  if (diff.changes.length === 0) lines.push('No replayed decision changed.');
  else {
    lines.push('| | case | old | new | reasons | items |', '|---|---|---|---|---|---|');
    for (const c of diff.changes) {
      const mark =
        c.direction === 'loosening' ? '⚠️ **loosened**' : c.direction === 'tightening' ? 'tightened' : 'reasons';
      const reasons = [...c.reasonsAdded.map((r) => `+\`${r}\``), ...c.reasonsRemoved.map((r) => `−\`${r}\``)].join(
        '<br>',
      );
      lines.push(
        `| ${mark} | ${cell(c.name)} (\`${cell(c.case.file)}:${c.case.line}\`) | ${c.old.effect} | ${c.new.effect} | ${cell(reasons)} | ${cell(itemsText(c))} |`,
      );
    }
  }
  lines.push('', '## Settings and rules', '');
  if (diff.settings.length === 0) lines.push('The documents have the same settings and rules.');
  else {
    lines.push('| | path | change | old | new |', '|---|---|---|---|---|');
    for (const st of diff.settings) {
      const mark = st.direction === 'loosening' ? '⚠️ **loosening**' : st.direction;
      const old = st.old === undefined ? '' : `\`${cell(value(st.old))}\``;
      const nu = st.new === undefined ? '' : `\`${cell(value(st.new))}\``;
      lines.push(`| ${mark} | \`${st.path}\` | ${st.kind} | ${old} | ${nu} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
