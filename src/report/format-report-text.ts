import { styleText } from 'node:util';
import { escapeInvisible } from '../decision/quote-value.ts';
import { verdictLegend } from '../record/format-record-table.ts';
import type { BreakdownList, ModeSection, ReportCounts } from './report-counts.ts';
import { modeIntro, modeSections, reportStages, reportVerdicts, rolloutLine } from './report-counts.ts';

/** Widest line of the text report, columns (UTF-16 code units; record values are cut to fit). */
export const reportTextColumns = 100;

type Style = Parameters<typeof styleText>[0];

const verdictStyle: Record<(typeof reportVerdicts)[number], Style> = {
  'body-obtained': 'green',
  'partially-interpreted': 'yellow',
  'link-only': 'red',
  unverifiable: 'magenta',
};

const barColumns = 40;

/** The report for a terminal: funnel, verdicts, reasons with what to check next, breakdowns, links not delivered whole; colour only when `colour`. */
export function formatReportText(counts: ReportCounts, colour: boolean): string {
  const paint = (style: Style, text: string) => (colour ? styleText(style, text, { validateStream: false }) : text);
  // colour codes are added after a line is cut, so the width is the printed width
  const out: string[] = [];
  const push = (text: string, style?: Style) => {
    const fitted = cut(text, reportTextColumns);
    out.push(style === undefined ? fitted : paint(style, fitted));
  };
  const heading = (text: string) => {
    out.push('');
    push(text, 'bold');
  };

  push(`linkgate report: ${counts.links} link${plural(counts.links)} from ${sourcesText(counts.sources)}`, 'bold');
  const sections = modeSections(counts);
  // the numbers a rollout decides on come first
  for (const section of sections) {
    const [first, ...rest] = wrap(rolloutLine(section), reportTextColumns - 2);
    push(first ?? '', 'bold');
    for (const l of rest) push(`  ${l}`, 'bold');
  }
  const filters = filtersText(counts);
  if (filters !== null)
    push(`filters: ${filters} (${counts.filteredOut} record${plural(counts.filteredOut)} left out)`);
  if (counts.skipped > 0)
    push(`${counts.skipped} line${plural(counts.skipped)} skipped: not records (each named on stderr)`, 'yellow');

  for (const section of sections) {
    const intro = modeIntro(section, sections.length);
    if (intro !== null) {
      out.push('');
      for (const l of wrap(intro, reportTextColumns)) push(l, 'bold');
    }
    modeText(section, push, heading, (style, text) => out.push(paint(style, text)));
  }
  if (counts.embedded.records > 0) {
    heading('embedded resources (bodies the tool results carried; not links)');
    push(`  ${counts.embedded.records}: ${embeddedParts(counts)}`);
  }
  return `${out.join('\n')}\n`;
}

// one mode's funnel, verdicts, reasons, breakdowns and links; observe mode says "would" in every heading
function modeText(
  section: ModeSection,
  push: (text: string, style?: Style) => void,
  heading: (text: string) => void,
  painted: (style: Style, text: string) => void,
): void {
  const counts = section.counts;
  const observe = section.mode === 'observe';
  const title = (text: string) => heading(observe ? `observe mode, if enforced: ${text}` : text);
  title('funnel');
  const top = Math.max(1, counts.stages.discovered);
  for (const stage of reportStages) {
    const n = counts.stages[stage];
    const bar = '█'.repeat(Math.round((n / top) * barColumns));
    push(`  ${stage.padEnd(10)}  ${String(n).padStart(9)}  ${percent(n, counts.links).padStart(6)}  ${bar}`);
  }

  title('verdicts');
  for (const v of reportVerdicts) {
    const n = counts.verdicts[v];
    const left = `  ${v.padEnd(21)}  ${String(n).padStart(9)}  ${percent(n, counts.links).padStart(6)}`;
    const legend = wrap(verdictLegend[v], reportTextColumns - left.length - 2);
    if (n > 0) painted(verdictStyle[v], `${left}  ${legend[0] ?? ''}`);
    else push(`${left}  ${legend[0] ?? ''}`);
    for (const l of legend.slice(1)) push(`${' '.repeat(left.length + 2)}${l}`);
  }

  const reasons = Object.entries(counts.reasons);
  if (reasons.length > 0) {
    title('reasons (records per code) and what to check next');
    for (const [code, n] of reasons) {
      push(`  ${escapeInvisible(code).padEnd(34)}  ${String(n).padStart(9)}`);
      const help = counts.hints[code];
      if (help !== undefined)
        for (const l of wrap(`check: ${help.checkNext}`, reportTextColumns - 6)) push(`      ${l}`);
    }
  }
  const next = Object.entries(counts.next);
  if (next.length > 0) {
    title('boundary to check next (records)');
    for (const [boundary, n] of next) push(`  ${escapeInvisible(boundary).padEnd(34)}  ${String(n).padStart(9)}`);
  }

  breakdown(push, title, 'by server', counts.byServer, (k) => k);
  breakdown(push, title, 'by tool', counts.byTool, (k) => k);
  breakdown(push, title, 'by host', counts.byHost, (k) => k);
  breakdown(push, title, 'by front end', counts.byFrontEnd, (k) => k);
  breakdown(push, title, 'by policy', counts.byPolicy, shortPolicyKey);

  const nd = counts.notDelivered;
  const what = observe ? 'observe mode: would not be delivered whole' : 'not delivered whole';
  heading(
    nd.listed.length < nd.total
      ? `${what}: ${nd.total} (the first ${nd.listed.length} listed; see --max-links)`
      : `${what}: ${nd.total}`,
  );
  for (const link of nd.listed) {
    const where = `${escapeInvisible(link.source)}:${link.line}`;
    const who = [
      escapeInvisible(link.server),
      link.tool === null ? null : escapeInvisible(link.tool),
      `${escapeInvisible(link.host)} (${escapeInvisible(link.frontEnd)})`,
    ]
      .filter((s) => s !== null)
      .join(' · ');
    const verdict = observe ? `${link.verdict} if enforced (recorded ${link.recordedVerdict})` : link.verdict;
    painted(verdictStyle[link.verdict], cut(`  ${where}  ${verdict}  ${escapeInvisible(link.at)}`, reportTextColumns));
    push(`      where    ${who}`);
    push(`      uri      ${escapeInvisible(link.uri)}`);
    if (link.reasons.length > 0) push(`      reasons  ${escapeInvisible(link.reasons.join(', '))}`);
    if (link.next !== null)
      for (const [i, l] of wrap(
        `${escapeInvisible(link.next.boundary)}: ${escapeInvisible(link.next.hint)}`,
        reportTextColumns - 15,
      ).entries())
        push(`      ${i === 0 ? 'next   ' : '       '}  ${l}`);
  }
}

function breakdown(
  push: (text: string, style?: Style) => void,
  heading: (text: string) => void,
  title: string,
  list: BreakdownList,
  shown: (key: string) => string,
): void {
  if (list.keys.length === 0) return;
  heading(list.otherKeys > 0 ? `${title} (${list.otherKeys} more keys counted as \`(other)\`)` : title);
  const numbers = ['links', 'body', 'partial', 'link-only', 'unverif.'];
  const widths = [8, 8, 8, 9, 8];
  const keyWidth = reportTextColumns - 2 - widths.reduce((a, w) => a + w + 1, 0);
  const row = (key: string, cells: string[]) =>
    `  ${cut(key, keyWidth).padEnd(keyWidth)}${cells.map((c, i) => ` ${c.padStart(widths[i] ?? 8)}`).join('')}`;
  push(row('', numbers));
  for (const k of list.keys)
    push(
      row(escapeInvisible(shown(k.key)), [
        String(k.links),
        String(k.verdicts['body-obtained']),
        String(k.verdicts['partially-interpreted']),
        String(k.verdicts['link-only']),
        String(k.verdicts.unverifiable),
      ]),
    );
}

/** `id@version sha256:0123456789ab…`: the digest's first 12 hex digits (the json output has it whole). */
export function shortPolicyKey(key: string): string {
  return key.replace(/(sha256:[0-9a-f]{12})[0-9a-f]{13,}$/, '$1…');
}

/** The input files for a heading: `-` reads as stdin. */
export function sourcesText(sources: readonly string[]): string {
  if (sources.length === 0) return 'no input';
  return sources.map((s) => (s === '-' ? 'stdin' : s)).join(', ');
}

/** The filters in one line, or null when none was given. */
export function filtersText(counts: ReportCounts): string | null {
  const f = counts.filters;
  const parts = [
    f.since === null ? null : `since ${f.since}`,
    f.servers.length === 0 ? null : `server ${f.servers.join(', ')}`,
    f.verdicts.length === 0 ? null : `verdict ${f.verdicts.join(', ')}`,
  ].filter((p) => p !== null);
  return parts.length === 0 ? null : parts.join(' · ');
}

/** `n` as a share of `of`, one decimal, `-` when `of` is 0. */
export function percent(n: number, of: number): string {
  return of === 0 ? '-' : `${((n / of) * 100).toFixed(1)}%`;
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

// word wrap at `width`; a word longer than the width is cut by the caller's line cut
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The embedded verdicts that occurred, as `N verdict` joined by `, ` (plain text: the caller escapes it). */
export function embeddedParts(counts: ReportCounts): string {
  return Object.entries(counts.embedded.verdicts)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`)
    .join(', ');
}

/** Text with controls shown as `\uXXXX` and `&`, `<`, `>` as entities: the part HTML and markdown escape alike. */
export function entityText(value: string): string {
  return value
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
