import { verdictLegend } from '../record/format-record-table.ts';
import type { BreakdownList, ModeSection, ReportCounts } from './report-counts.ts';
import { modeIntro, modeSections, reportStages, reportVerdicts, rolloutLine } from './report-counts.ts';
import { embeddedParts, entityText, filtersText, percent, sourcesText } from './format-report-text.ts';

/**
 * Text from a record as markdown that renders as that text: html-significant characters as entities, markdown
 * punctuation backslash-escaped (so `|` cannot end a table cell, `[`, `*` and backticks start nothing), line breaks
 * and other controls as `\uXXXX`.
 */
export function markdownText(value: string): string {
  return entityText(value).replace(/[\\`*_{}[\]()#+!|~]/g, (c) => `\\${c}`);
}

/** The report as github-flavoured markdown, to attach to a review or a pull request: every record value escaped. */
export function formatReportMarkdown(counts: ReportCounts): string {
  const out: string[] = [];
  out.push(`## linkgate report: ${counts.links} link${plural(counts.links)}`, '');
  const sections = modeSections(counts);
  // the numbers a rollout decides on come first (the reason codes in them are the catalogue's, not a record's)
  for (const section of sections) out.push(`- ${markdownText(rolloutLine(section))}`);
  out.push('');
  out.push(`From ${markdownText(sourcesText(counts.sources))}.`);
  const filters = filtersText(counts);
  if (filters !== null)
    out.push(`Filters: ${markdownText(filters)} (${counts.filteredOut} record${plural(counts.filteredOut)} left out).`);
  if (counts.skipped > 0)
    out.push(`**${counts.skipped} line${plural(counts.skipped)} skipped**: not records (each named on stderr).`);
  for (const section of sections) {
    const intro = modeIntro(section, sections.length);
    if (intro !== null) out.push('', `**${intro}**`);
    modeMarkdown(out, section);
  }
  if (counts.embedded.records > 0) {
    out.push(
      '',
      `Embedded resources (bodies the tool results carried, not links): ${counts.embedded.records} (${embeddedParts(counts)}).`,
    );
  }
  return `${out.join('\n')}\n`;
}

// one mode's tables; observe mode says "if enforced" in every heading and lists what would not be delivered
function modeMarkdown(out: string[], section: ModeSection): void {
  const counts = section.counts;
  const observe = section.mode === 'observe';
  const h = (text: string) => `### ${observe ? `Observe mode, if enforced: ${text.toLowerCase()}` : text}`;
  out.push('', h('Funnel'), '', '| stage | links | share |', '|---|---:|---:|');
  for (const s of reportStages) out.push(`| ${s} | ${counts.stages[s]} | ${percent(counts.stages[s], counts.links)} |`);
  out.push('', h('Verdicts'), '', '| verdict | links | share | meaning |', '|---|---:|---:|---|');
  for (const v of reportVerdicts)
    out.push(`| ${v} | ${counts.verdicts[v]} | ${percent(counts.verdicts[v], counts.links)} | ${verdictLegend[v]} |`);
  const reasons = Object.entries(counts.reasons);
  if (reasons.length > 0) {
    // the hints are the project's own catalogue (markdown with code spans); only the codes come from records
    out.push('', h('Reasons'), '', '| reason code | links | check next |', '|---|---:|---|');
    for (const [code, n] of reasons)
      out.push(`| ${markdownText(code)} | ${n} | ${(counts.hints[code]?.checkNext ?? '').replaceAll('|', '\\|')} |`);
  }
  const next = Object.entries(counts.next);
  if (next.length > 0) {
    out.push('', h('Boundary to check next'), '', '| boundary | links |', '|---|---:|');
    for (const [boundary, n] of next) out.push(`| ${markdownText(boundary)} | ${n} |`);
  }
  breakdown(out, h('By server'), counts.byServer);
  breakdown(out, h('By tool'), counts.byTool);
  breakdown(out, h('By host'), counts.byHost);
  breakdown(out, h('By front end'), counts.byFrontEnd);
  breakdown(out, h('By policy'), counts.byPolicy);
  const nd = counts.notDelivered;
  out.push(
    '',
    `### ${observe ? 'Observe mode: would not be delivered whole' : 'Not delivered whole'}: ${nd.total}`,
    '',
  );
  if (nd.listed.length < nd.total) out.push(`The first ${nd.listed.length} are listed (\`--max-links\`).`, '');
  if (nd.listed.length === 0) return;
  out.push(
    `| record | uri | server · tool | host (front end) | ${observe ? 'verdict if enforced (recorded)' : 'verdict'} | reasons | next |`,
    '|---|---|---|---|---|---|---|',
  );
  for (const l of nd.listed) {
    const who = l.tool === null ? markdownText(l.server) : `${markdownText(l.server)} · ${markdownText(l.tool)}`;
    const verdict = observe ? `${l.verdict} (${l.recordedVerdict})` : l.verdict;
    out.push(
      `| ${markdownText(`${l.source}:${l.line}`)} | ${markdownText(l.uri)} | ${who} | ${markdownText(l.host)} (${markdownText(l.frontEnd)}) | ${verdict} | ${markdownText(l.reasons.join(', '))} | ${l.next === null ? '' : `${markdownText(l.next.boundary)}: ${markdownText(l.next.hint)}`} |`,
    );
  }
}

function breakdown(out: string[], title: string, list: BreakdownList): void {
  if (list.keys.length === 0) return;
  out.push('', title, '');
  if (list.otherKeys > 0) out.push(`${list.otherKeys} more keys are counted as \`(other)\`.`, '');
  out.push(
    '| key | links | body-obtained | partially-interpreted | link-only | unverifiable |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const k of list.keys)
    out.push(
      `| ${markdownText(k.key)} | ${k.links} | ${k.verdicts['body-obtained']} | ${k.verdicts['partially-interpreted']} | ${k.verdicts['link-only']} | ${k.verdicts.unverifiable} |`,
    );
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}
