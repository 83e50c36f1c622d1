import { createHash } from 'node:crypto';
import { verdictLegend } from '../record/format-record-table.ts';
import type { BreakdownList, ListedLink, ModeCounts, ModeSection, ReportCounts } from './report-counts.ts';
import { modeIntro, modeSections, reportStages, reportVerdicts, rolloutLine } from './report-counts.ts';
import { embeddedParts, entityText, filtersText, percent, sourcesText } from './format-report-text.ts';

/** Keys drawn per breakdown chart; the table under it lists every key. */
export const maxChartKeys = 12;

/** Text from a record (or anywhere) as HTML text: the five significant characters as entities, controls shown as `\uXXXX`. */
export function htmlText(value: string): string {
  return entityText(value).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

// escaped text with `code spans` shown as <code>: the spans are found in the escaped text, so nothing in them is markup
function richText(value: string): string {
  return htmlText(value).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const verdictClass: Record<(typeof reportVerdicts)[number], string> = {
  'body-obtained': 'v-body',
  'partially-interpreted': 'v-partial',
  'link-only': 'v-link',
  unverifiable: 'v-unver',
};

const baseStyle = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#59636e;--line:#d1d9e0;--panel:#f6f8fa;
--body:#1a7f37;--partial:#9a6700;--link:#cf222e;--unver:#8250df;--bar:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;
--body:#3fb950;--partial:#d29922;--link:#f85149;--unver:#ab7df8;--bar:#4493f8}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
p.meta{color:var(--muted);margin:2px 0}p.warn{color:var(--link);font-weight:600}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--panel);padding:0 3px;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:6px 0}
th,td{border-bottom:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:var(--panel);font-weight:600;overflow-wrap:normal}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.n{white-space:nowrap;overflow-wrap:normal}
td.uri{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;word-break:break-all}
td.key{word-break:break-all}
svg{display:block;max-width:100%;height:auto}svg text{fill:var(--fg);font-size:13px}
svg .muted{fill:var(--muted)}svg .track{fill:var(--panel)}svg .bar{fill:var(--bar)}
.v-body{fill:var(--body)}.v-partial{fill:var(--partial)}.v-link{fill:var(--link)}.v-unver{fill:var(--unver)}
td.v-body,span.v-body{color:var(--body)}td.v-partial,span.v-partial{color:var(--partial)}
td.v-link,span.v-link{color:var(--link)}td.v-unver,span.v-unver{color:var(--unver)}
.legend span{margin-right:14px}.legend span::before{content:"■ "}
fieldset{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 10px}
legend{font-weight:600;padding:0 4px}fieldset label{display:inline-block;margin:2px 12px 2px 0;white-space:nowrap}
section.links{counter-reset:shown}section.links tbody tr{counter-increment:shown}
section.mode{border-top:3px solid var(--line);margin-top:28px}section#o-mode{border-top-color:var(--partial)}
p.mode{font-weight:600;font-size:15px}
@media print{body{background:#fff;color:#000}main{max-width:none;padding:0}form.filters,p.shown{display:none}
tr,svg{break-inside:avoid}h2{break-after:avoid}a{color:inherit}}
`;

/**
 * The report as one self-contained HTML page that opens from a file: no script, no network (a CSP meta tag allows
 * nothing but its own stylesheet, by hash), the funnel and the breakdowns as inline SVG, and the links not delivered
 * in a table filtered by verdict, server and reason with radio inputs and CSS alone. Every value from a record is
 * escaped as text; record values never reach the stylesheet (filters select by index classes).
 */
export function formatReportHtml(counts: ReportCounts): string {
  const sections = modeSections(counts).map((section) => {
    const prefix = section.mode === 'observe' ? 'o-' : '';
    const listed = section.counts.notDelivered.listed;
    return {
      section,
      prefix,
      listed,
      servers: distinct(listed.map((l) => l.server)),
      hosts: distinct(listed.map((l) => l.host)),
      frontEnds: distinct(listed.map((l) => l.frontEnd)),
      reasons: distinct(listed.flatMap((l) => l.reasons)),
      verdicts: reportVerdicts.filter((v) => listed.some((l) => l.verdict === v)),
    };
  });
  const style = `${baseStyle}${sections.map((m) => filterRules(m)).join('')}`;
  const hash = createHash('sha256').update(style, 'utf8').digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
  const title = `linkgate report: ${counts.links} link${counts.links === 1 ? '' : 's'}`;
  const body: string[] = [];
  body.push(`<h1>${htmlText(title)}</h1>`);
  // the numbers a rollout decides on, first: one line per mode
  body.push(
    `<ul id="rollout-lines">${sections.map((m) => `<li id="${m.prefix}rollout">${htmlText(rolloutLine(m.section))}</li>`).join('')}</ul>`,
  );
  body.push(`<p class="meta">from ${htmlText(sourcesText(counts.sources))}</p>`);
  const filters = filtersText(counts);
  if (filters !== null)
    body.push(
      `<p class="meta">filters: ${htmlText(filters)} (<span id="filtered-out">${counts.filteredOut}</span> records left out)</p>`,
    );
  if (counts.skipped > 0)
    body.push(
      `<p class="warn"><span id="skipped">${counts.skipped}</span> line${counts.skipped === 1 ? '' : 's'} skipped: not records</p>`,
    );
  for (const m of sections) {
    const { section, prefix: p } = m;
    const mode = section.counts;
    const h = (text: string) =>
      `<h2>${section.mode === 'observe' ? `Observe mode, if enforced: ${text.toLowerCase()}` : text}</h2>`;
    body.push(`<section class="mode" id="${p}mode">`);
    const intro = modeIntro(section, sections.length);
    if (intro !== null) body.push(`<p class="mode" id="${p}intro">${htmlText(intro)}</p>`);
    body.push(h('Funnel'), funnelSvg(mode, p));
    body.push(h('Verdicts'), verdictSvg(mode, p), verdictTable(mode, p));
    body.push(reasonsTable(mode, p, h));
    body.push(breakdown(h('By server'), 'server', mode.byServer, p));
    body.push(breakdown(h('By tool'), 'tool', mode.byTool, p));
    body.push(breakdown(h('By host'), 'host', mode.byHost, p));
    body.push(breakdown(h('By front end'), 'front-end', mode.byFrontEnd, p));
    body.push(breakdown(h('By policy'), 'policy', mode.byPolicy, p));
    body.push(linksSection(m), '</section>');
  }
  if (counts.embedded.records > 0) {
    body.push(
      `<p>Embedded resources (bodies the tool results carried, not links): <span id="embedded">${counts.embedded.records}</span> (${htmlText(embeddedParts(counts))}).</p>`,
    );
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${htmlText(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${body.join('\n')}
</main>
</body>
</html>
`;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

// one rule per filter value: a row that does not match the checked value is hidden; `all` checks nothing. Ids and
// classes are the mode's prefix and an index, never a record value
function filterRules(m: HtmlModeSection): string {
  const p = m.prefix;
  const rules = [`#${p}links p.shown::before{content:counter(shown) " of ${m.listed.length} listed links shown"}`];
  const hide = (radio: string, cls: string) =>
    rules.push(`main:has(#${p}${radio}:checked) #${p}links tbody tr:not(.${cls}){display:none}`);
  for (const v of m.verdicts) {
    const c = verdictClass[v];
    hide(`fv-${c}`, c);
  }
  for (const [group, cls, values] of [
    ['fs', 's', m.servers],
    ['fh', 'h', m.hosts],
    ['ff', 'f', m.frontEnds],
    ['fr', 'r', m.reasons],
  ] as const)
    for (let i = 0; i < values.length; i += 1) hide(`${group}-${i}`, `${cls}${i}`);
  return `${rules.join('\n')}\n`;
}

function funnelSvg(counts: ModeCounts, p: string): string {
  const width = 720;
  const rowHeight = 34;
  const labelWidth = 110;
  const barWidth = 470;
  const top = Math.max(1, counts.stages.discovered);
  const rows = reportStages.map((stage, i) => {
    const n = counts.stages[stage];
    const y = i * rowHeight + 6;
    const w = Math.round((n / top) * barWidth);
    return `<text x="0" y="${y + 17}">${stage}</text><rect class="track" x="${labelWidth}" y="${y}" width="${barWidth}" height="24" rx="3"/><rect class="bar" x="${labelWidth}" y="${y}" width="${w}" height="24" rx="3"/><text x="${labelWidth + barWidth + 10}" y="${y + 17}" data-stage="${stage}">${n}</text><text class="muted" x="${width - 4}" y="${y + 17}" text-anchor="end">${percent(n, counts.links)}</text>`;
  });
  return `<svg id="${p}funnel" viewBox="0 0 ${width} ${reportStages.length * rowHeight + 8}" width="${width}" role="img" aria-label="funnel: links per stage">${rows.join('')}</svg>`;
}

function verdictSvg(counts: ModeCounts, p: string): string {
  const width = 720;
  const total = Math.max(1, counts.links);
  let x = 0;
  const segments = reportVerdicts.map((v) => {
    const w = (counts.verdicts[v] / total) * width;
    const rect = `<rect class="${verdictClass[v]}" x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="26"><title>${v}: ${counts.verdicts[v]}</title></rect>`;
    x += w;
    return rect;
  });
  return `<svg id="${p}verdict-chart" viewBox="0 0 ${width} 26" width="${width}" role="img" aria-label="verdicts as shares of the links">${counts.links === 0 ? '<rect class="track" x="0" y="0" width="720" height="26"/>' : segments.join('')}</svg>`;
}

function verdictTable(counts: ModeCounts, p: string): string {
  const rows = reportVerdicts.map(
    (v) =>
      `<tr><td><span class="${verdictClass[v]}">■</span> ${v}</td><td class="n" data-verdict="${v}">${counts.verdicts[v]}</td><td class="n">${percent(counts.verdicts[v], counts.links)}</td><td>${htmlText(verdictLegend[v])}</td></tr>`,
  );
  return `<table id="${p}verdicts"><thead><tr><th>verdict</th><th class="n">links</th><th class="n">share</th><th>meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function reasonsTable(counts: ModeCounts, p: string, h: (text: string) => string): string {
  const reasons = Object.entries(counts.reasons);
  const next = Object.entries(counts.next);
  const out: string[] = [];
  if (reasons.length > 0) {
    out.push(
      h('Reasons'),
      `<table id="${p}reasons"><thead><tr><th>reason code</th><th class="n">links</th><th>means</th><th>check next</th></tr></thead><tbody>`,
      ...reasons.map(([code, n]) => {
        const help = counts.hints[code];
        return `<tr><td><code>${htmlText(code)}</code></td><td class="n" data-reason="${htmlText(code)}">${n}</td><td>${help === undefined ? '' : richText(help.means)}</td><td>${help === undefined ? '' : richText(help.checkNext)}</td></tr>`;
      }),
      '</tbody></table>',
    );
  }
  if (next.length > 0) {
    out.push(
      h('Boundary to check next'),
      `<table id="${p}next"><thead><tr><th>boundary</th><th class="n">links</th></tr></thead><tbody>`,
      ...next.map(([b, n]) => `<tr><td>${htmlText(b)}</td><td class="n" data-boundary="${htmlText(b)}">${n}</td></tr>`),
      '</tbody></table>',
    );
  }
  return out.join('\n');
}

function breakdown(heading: string, id: string, list: BreakdownList, p: string): string {
  const title = heading.replace(/<[^>]*>/g, '');
  if (list.keys.length === 0) return '';
  const drawn = list.keys.slice(0, maxChartKeys);
  const width = 720;
  const labelWidth = 250;
  const barWidth = 400;
  const rowHeight = 24;
  const top = Math.max(1, ...drawn.map((k) => k.links));
  const rows = drawn.map((k, i) => {
    const y = i * rowHeight + 4;
    let x = labelWidth;
    const segments = reportVerdicts.map((v) => {
      const w = (k.verdicts[v] / top) * barWidth;
      const rect =
        w > 0
          ? `<rect class="${verdictClass[v]}" x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="18"/>`
          : '';
      x += w;
      return rect;
    });
    const label = k.key.length > 34 ? `${k.key.slice(0, 33)}…` : k.key;
    return `<text x="0" y="${y + 14}"><title>${htmlText(k.key)}</title>${htmlText(label)}</text>${segments.join('')}<text x="${x + 8}" y="${y + 14}">${k.links}</text>`;
  });
  const legend = `<p class="legend">${reportVerdicts.map((v) => `<span class="${verdictClass[v]}">${v}</span>`).join('')}</p>`;
  const more =
    list.otherKeys > 0 ? `<p class="meta">${list.otherKeys} more keys are counted as <code>(other)</code>.</p>` : '';
  const notDrawn =
    list.keys.length > drawn.length
      ? `<p class="meta">the chart draws the first ${drawn.length} keys; the table lists all ${list.keys.length}.</p>`
      : '';
  const table = `<table id="${p}by-${id}"><thead><tr><th>${htmlText(id.replace('-', ' '))}</th><th class="n">links</th><th class="n">body-obtained</th><th class="n">partially-interpreted</th><th class="n">link-only</th><th class="n">unverifiable</th></tr></thead><tbody>${list.keys
    .map(
      (k) =>
        `<tr><td class="key">${htmlText(k.key)}</td><td class="n">${k.links}</td><td class="n">${k.verdicts['body-obtained']}</td><td class="n">${k.verdicts['partially-interpreted']}</td><td class="n">${k.verdicts['link-only']}</td><td class="n">${k.verdicts.unverifiable}</td></tr>`,
    )
    .join('')}</tbody></table>`;
  return `${heading}\n<svg id="${p}chart-${id}" viewBox="0 0 ${width} ${drawn.length * rowHeight + 8}" width="${width}" role="img" aria-label="${htmlText(title)}: links per key by verdict">${rows.join('')}</svg>\n${legend}${more}${notDrawn}\n${table}`;
}

interface HtmlModeSection {
  section: ModeSection;
  prefix: string;
  listed: readonly ListedLink[];
  servers: readonly string[];
  hosts: readonly string[];
  frontEnds: readonly string[];
  reasons: readonly string[];
  verdicts: readonly (typeof reportVerdicts)[number][];
}

function linksSection(m: HtmlModeSection): string {
  const { prefix: p, listed, servers, hosts, frontEnds, reasons, verdicts } = m;
  const observe = m.section.mode === 'observe';
  const nd = m.section.counts.notDelivered;
  const out: string[] = [
    `<section class="links" id="${p}links">`,
    `<h2>${observe ? 'Observe mode: would not be delivered whole' : 'Not delivered whole'}: <span id="${p}not-delivered">${nd.total}</span></h2>`,
  ];
  if (listed.length < nd.total)
    out.push(
      `<p class="meta">the first ${listed.length} are listed (<code>--max-links</code>); all ${nd.total} are counted.</p>`,
    );
  if (listed.length === 0) {
    out.push(
      observe ? '<p>Enforcing would have delivered every link whole.</p>' : '<p>Every link was delivered whole.</p>',
      '</section>',
    );
    return out.join('\n');
  }
  const count = (pred: (l: ListedLink) => boolean) => listed.filter(pred).length;
  const radio = (group: string, id: string, label: string, checked = false) =>
    `<label><input type="radio" name="${p}${group}" id="${p}${id}"${checked ? ' checked' : ''}> ${label}</label>`;
  const fieldset = (group: string, legend: string, items: string) =>
    `<fieldset><legend>${legend}</legend>${radio(group, `${group}-all`, 'all', true)}${items}</fieldset>`;
  out.push(
    `<form class="filters" aria-label="${observe ? 'filter the links enforcing would not deliver' : 'filter the links'}">`,
    fieldset(
      'fv',
      observe ? 'verdict if enforced' : 'verdict',
      verdicts.map((v) => radio('fv', `fv-${verdictClass[v]}`, `${v} (${count((l) => l.verdict === v)})`)).join(''),
    ),
    fieldset(
      'fs',
      'server',
      servers.map((s, i) => radio('fs', `fs-${i}`, `${htmlText(s)} (${count((l) => l.server === s)})`)).join(''),
    ),
    fieldset(
      'fh',
      'host',
      hosts.map((h, i) => radio('fh', `fh-${i}`, `${htmlText(h)} (${count((l) => l.host === h)})`)).join(''),
    ),
    fieldset(
      'ff',
      'front end',
      frontEnds.map((f, i) => radio('ff', `ff-${i}`, `${htmlText(f)} (${count((l) => l.frontEnd === f)})`)).join(''),
    ),
    fieldset(
      'fr',
      'reason',
      reasons.map((r, i) => radio('fr', `fr-${i}`, `${htmlText(r)} (${count((l) => l.reasons.includes(r))})`)).join(''),
    ),
    '</form>',
  );
  const serverIndex = new Map(servers.map((s, i) => [s, i]));
  const hostIndex = new Map(hosts.map((h, i) => [h, i]));
  const frontEndIndex = new Map(frontEnds.map((f, i) => [f, i]));
  const reasonIndex = new Map(reasons.map((r, i) => [r, i]));
  out.push(
    `<table id="${p}link-table"><thead><tr><th>record</th><th>discovered</th><th>uri</th><th>server · tool</th><th>host (front end)</th><th>${observe ? 'verdict if enforced (recorded)' : 'verdict'}</th><th>reasons</th><th>next</th></tr></thead><tbody>`,
  );
  for (const l of listed) {
    const classes = [
      verdictClass[l.verdict],
      `s${serverIndex.get(l.server) ?? 0}`,
      `h${hostIndex.get(l.host) ?? 0}`,
      `f${frontEndIndex.get(l.frontEnd) ?? 0}`,
      ...l.reasons.map((r) => `r${reasonIndex.get(r) ?? 0}`),
    ].join(' ');
    const who = l.tool === null ? htmlText(l.server) : `${htmlText(l.server)} · ${htmlText(l.tool)}`;
    const verdict = observe ? `${l.verdict} (${l.recordedVerdict})` : l.verdict;
    out.push(
      `<tr class="${classes}"><td>${htmlText(`${l.source}:${l.line}`)}</td><td>${htmlText(l.at)}</td><td class="uri">${htmlText(l.uri)}</td><td>${who}</td><td>${htmlText(l.host)} (${htmlText(l.frontEnd)})</td><td class="${verdictClass[l.verdict]}">${verdict}</td><td>${l.reasons.map((r) => `<code>${htmlText(r)}</code>`).join(' ')}</td><td>${l.next === null ? '' : `${htmlText(l.next.boundary)}: ${richText(l.next.hint)}`}</td></tr>`,
    );
  }
  out.push('</tbody></table>', '<p class="shown meta"></p>', '</section>');
  return out.join('\n');
}
