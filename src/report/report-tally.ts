import { embeddedVerdicts, type ReportCounts, reportVerdicts, type SkippedLine } from './report-counts.ts';
import { linkKey, readReportLine, type ReportRecord } from './report-line.ts';
import { ModeTally } from './report-mode-tally.ts';

/** Links listed in full by default (`--max-links`); past it, links are only counted. */
export const defaultMaxListedLinks = 1000;

/**
 * Links a report keeps open for a later record of the same link to supersede (a read after its discovery, the
 * model's attempt at a link refused in the tool result); past it the oldest is counted as it stands, so memory stays
 * bounded however long the file.
 */
export const supersedeWindow = 10_000;

// how far a record got: a later record supersedes an earlier one of the same link unless it got less far
const reach = (r: ReportRecord) => (r.provisional ? 0 : r.requested ? 2 : 1);

interface OpenLink {
  source: string;
  line: number;
  record: ReportRecord;
}

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

/** A new streaming report with these filters and bounds. */
export function createReportTally(options: ReportOptions): ReportTally {
  const servers = new Set(options.servers);
  const verdictFilter = new Set<string>(options.verdicts);
  let lines = 0;
  let recordsRead = 0;
  let filteredOut = 0;
  let links = 0;
  const enforce = new ModeTally(false, options.maxListed);
  const observe = new ModeTally(true, options.maxListed);
  const embedded = {
    records: 0,
    verdicts: Object.fromEntries(embeddedVerdicts.map((v) => [v, 0])) as Record<
      (typeof embeddedVerdicts)[number],
      number
    >,
  };
  let skipped = 0;
  const skippedLines: SkippedLine[] = [];

  const skip = (source: string, line: number, message: string): SkippedLine => {
    skipped += 1;
    const entry = { source, line, message };
    if (skippedLines.length < options.maxListed) skippedLines.push(entry);
    return entry;
  };

  // the links still open to a later record, oldest first
  const open = new Map<string, OpenLink>();
  let superseded = 0;

  const settle = ({ source, line, record: r }: OpenLink) => {
    if (verdictFilter.size > 0 && !verdictFilter.has(r.verdict)) {
      filteredOut += 1;
      return;
    }
    links += 1;
    (r.mode === 'observe' ? observe : enforce).add(source, line, r);
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
    if (servers.size > 0 && !servers.has(r.server)) {
      filteredOut += 1;
      return null;
    }
    const key = linkKey(r);
    const earlier = open.get(key);
    if (earlier !== undefined) {
      superseded += 1;
      open.delete(key);
      open.set(key, reach(r) >= reach(earlier.record) ? { source, line, record: r } : earlier);
      return null;
    }
    open.set(key, { source, line, record: r });
    if (open.size > supersedeWindow) {
      const oldest = open.entries().next();
      if (oldest.done !== true) {
        open.delete(oldest.value[0]);
        settle(oldest.value[1]);
      }
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
      for (const link of open.values()) settle(link);
      open.clear();
      const rank = (source: string) => sources.indexOf(source);
      return {
        sources: [...sources],
        filters: {
          since: options.sinceMs === null ? null : new Date(options.sinceMs).toISOString(),
          servers: [...options.servers],
          verdicts: [...options.verdicts],
        },
        lines,
        filteredOut,
        records: recordsRead,
        superseded,
        links,
        enforce: enforce.finish(rank),
        observe: { ...observe.finish(rank), wouldDeny: observe.wouldDeny },
        embedded: { records: embedded.records, verdicts: { ...embedded.verdicts } },
        skipped,
        skippedLines: [...skippedLines],
      };
    },
  };
}
