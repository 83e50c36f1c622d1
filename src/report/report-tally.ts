import { reasonCodeHelp } from '../decision/reason-code-help.ts';
import { maskUri } from '../link/mask-uri.ts';
import {
  type BreakdownList,
  embeddedVerdicts,
  type ListedLink,
  type ReportCounts,
  reportVerdicts,
  type SkippedLine,
  type VerdictCounts,
} from './report-counts.ts';
import { readReportLine, type ReportRecord } from './report-line.ts';

/** Links listed in full by default (`--max-links`); past it, links are only counted. */
export const defaultMaxListedLinks = 1000;

/** Distinct keys kept per breakdown (and distinct reason codes); records of further keys count under `(other)`. */
export const maxBreakdownKeys = 200;

/** The key further keys are counted under once a breakdown holds `maxBreakdownKeys`. */
export const otherKey = '(other)';

/** What a report counts: the filters and the bound of its lists. */
export interface ReportOptions {
  /** leave out records discovered before this time, epoch milliseconds; null: keep all */
  readonly sinceMs: number | null;
  /** keep only records of these server ids; empty: all */
  readonly servers: readonly string[];
  /** keep only records with these verdicts; empty: all */
  readonly verdicts: readonly (typeof reportVerdicts)[number][];
  /** links listed in full (and skipped lines kept), at most */
  readonly maxListed: number;
}

/** A streaming report: feed it every input line in order, then `finish`; memory is bounded by the options, not the lines. */
export interface ReportTally {
  /** counts one input line (empty lines are passed over); returns the skipped line when it is not a record */
  addLine(source: string, line: number, text: string): SkippedLine | null;
  /** counts a line that could not be read at all (over the line cap) */
  addBadLine(source: string, line: number, message: string): SkippedLine;
  /** the counts so far, with every input file named in `sources` */
  finish(sources: readonly string[]): ReportCounts;
  /** records taken apart so far (a work counter for the tests and the bench) */
  readonly recordsRead: number;
}

const zeroVerdicts = (): VerdictCounts => ({
  'body-obtained': 0,
  'partially-interpreted': 0,
  'link-only': 0,
  unverifiable: 0,
});

interface KeyCounts {
  links: number;
  verdicts: VerdictCounts;
  wouldDeny: number;
}

// one breakdown: at most `maxBreakdownKeys` keys, the rest folded into `(other)` (keys come from servers: a hostile
// one could name a new tool in every result)
class Breakdown {
  readonly keys = new Map<string, KeyCounts>();
  otherKeys = 0;

  add(key: string, record: ReportRecord): void {
    let counts = this.keys.get(key);
    if (counts === undefined) {
      if (this.keys.size >= maxBreakdownKeys) {
        this.otherKeys += 1;
        key = otherKey;
        counts = this.keys.get(key);
      }
      if (counts === undefined) {
        counts = { links: 0, verdicts: zeroVerdicts(), wouldDeny: 0 };
        this.keys.set(key, counts);
      }
    }
    counts.links += 1;
    counts.verdicts[record.verdict] += 1;
    if (record.wouldDeny) counts.wouldDeny += 1;
  }

  list(): BreakdownList {
    return {
      keys: [...this.keys]
        .map(([key, c]) => ({ key, links: c.links, verdicts: { ...c.verdicts }, wouldDeny: c.wouldDeny }))
        .sort((a, b) => b.links - a.links || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
      otherKeys: this.otherKeys,
    };
  }
}

// a capped count per key, the rest under `(other)`
function bump(map: Map<string, number>, key: string): void {
  const n = map.get(key);
  if (n !== undefined) map.set(key, n + 1);
  else if (map.size < maxBreakdownKeys) map.set(key, 1);
  else map.set(otherKey, (map.get(otherKey) ?? 0) + 1);
}

function sortedCounts(map: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/** A new streaming report with these filters and bounds. */
export function createReportTally(options: ReportOptions): ReportTally {
  const servers = new Set(options.servers);
  const verdictFilter = new Set<string>(options.verdicts);
  let lines = 0;
  let recordsRead = 0;
  let filteredOut = 0;
  let links = 0;
  const stages = { discovered: 0, requested: 0, received: 0, delivered: 0 };
  const verdicts = zeroVerdicts();
  const observe = { records: 0, wouldDeny: 0 };
  const reasons = new Map<string, number>();
  const next = new Map<string, number>();
  const byServer = new Breakdown();
  const byTool = new Breakdown();
  const byFrontEnd = new Breakdown();
  const byPolicy = new Breakdown();
  const embedded = {
    records: 0,
    verdicts: Object.fromEntries(embeddedVerdicts.map((v) => [v, 0])) as Record<
      (typeof embeddedVerdicts)[number],
      number
    >,
  };
  let notDeliveredTotal = 0;
  const listed: ListedLink[] = [];
  let skipped = 0;
  const skippedLines: SkippedLine[] = [];

  const skip = (source: string, line: number, message: string): SkippedLine => {
    skipped += 1;
    const entry = { source, line, message };
    if (skippedLines.length < options.maxListed) skippedLines.push(entry);
    return entry;
  };

  const count = (source: string, line: number, r: ReportRecord): SkippedLine | null => {
    if (options.sinceMs !== null) {
      const at = Date.parse(r.at);
      if (Number.isNaN(at)) return skip(source, line, '`stages.discovered.at` is not a time');
      if (at < options.sinceMs) {
        filteredOut += 1;
        return null;
      }
    }
    if ((servers.size > 0 && !servers.has(r.server)) || (verdictFilter.size > 0 && !verdictFilter.has(r.verdict))) {
      filteredOut += 1;
      return null;
    }
    links += 1;
    stages.discovered += 1;
    if (r.requested) stages.requested += 1;
    if (r.received) stages.received += 1;
    if (r.delivered) stages.delivered += 1;
    verdicts[r.verdict] += 1;
    if (r.observe) {
      observe.records += 1;
      if (r.wouldDeny) observe.wouldDeny += 1;
    }
    for (const code of r.reasons) bump(reasons, code);
    if (r.next !== null) bump(next, r.next.boundary);
    byServer.add(r.server, r);
    byTool.add(r.tool ?? '(no tool)', r);
    byFrontEnd.add(r.frontEnd, r);
    byPolicy.add(`${r.policy.id}@${r.policy.version} ${r.policy.digest}`, r);
    if (r.verdict !== 'body-obtained') {
      notDeliveredTotal += 1;
      if (listed.length < options.maxListed)
        listed.push({
          source,
          line,
          at: r.at,
          // masked again: a records file written by something else must not carry userinfo or query values on
          uri: maskUri(r.uri),
          server: r.server,
          tool: r.tool,
          frontEnd: r.frontEnd,
          verdict: r.verdict,
          wouldDeny: r.wouldDeny,
          reasons: r.reasons,
          next: r.next,
        });
    }
    return null;
  };

  return {
    get recordsRead() {
      return recordsRead;
    },
    addLine(source, line, text) {
      if (text.trim() === '') return null;
      lines += 1;
      const read = readReportLine(text);
      switch (read.kind) {
        case 'bad':
          return skip(source, line, read.message);
        case 'summary':
          return null;
        case 'embedded':
          embedded.records += 1;
          embedded.verdicts[read.verdict] += 1;
          return null;
        case 'link':
          recordsRead += 1;
          return count(source, line, read.record);
      }
    },
    addBadLine(source, line, message) {
      lines += 1;
      return skip(source, line, message);
    },
    finish(sources) {
      const hints: ReportCounts['hints'] = {};
      for (const code of reasons.keys()) {
        const help = (reasonCodeHelp as Record<string, { means: string; checkNext: string } | undefined>)[code];
        if (help !== undefined) hints[code] = { means: help.means, checkNext: help.checkNext };
      }
      return {
        sources: [...sources],
        filters: {
          since: options.sinceMs === null ? null : new Date(options.sinceMs).toISOString(),
          servers: [...options.servers],
          verdicts: [...options.verdicts],
        },
        lines,
        filteredOut,
        links,
        stages: { ...stages },
        verdicts: { ...verdicts },
        observe: { ...observe },
        reasons: sortedCounts(reasons),
        hints,
        next: sortedCounts(next),
        byServer: byServer.list(),
        byTool: byTool.list(),
        byFrontEnd: byFrontEnd.list(),
        byPolicy: byPolicy.list(),
        embedded: { records: embedded.records, verdicts: { ...embedded.verdicts } },
        notDelivered: { total: notDeliveredTotal, listed: [...listed], limit: options.maxListed },
        skipped,
        skippedLines: [...skippedLines],
      };
    },
  };
}
