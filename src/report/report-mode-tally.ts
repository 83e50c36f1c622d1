import { reasonCodeHelp } from '../decision/reason-code-help.ts';
import { maskUri } from '../link/mask-uri.ts';
import { observeHint } from './enforced-outcome.ts';
import type { BreakdownList, ListedLink, ModeCounts, VerdictCounts } from './report-counts.ts';
import type { ReportRecord } from './report-line.ts';

/** Distinct keys kept per breakdown (and distinct reason codes); records of further keys count under `(other)`. */
export const maxBreakdownKeys = 200;

/** The key further keys are counted under once a breakdown holds `maxBreakdownKeys`. */
export const otherKey = '(other)';

const zeroVerdicts = (): VerdictCounts => ({
  'body-obtained': 0,
  'partially-interpreted': 0,
  'link-only': 0,
  unverifiable: 0,
});

interface KeyCounts {
  links: number;
  verdicts: VerdictCounts;
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
        counts = { links: 0, verdicts: zeroVerdicts() };
        this.keys.set(key, counts);
      }
    }
    counts.links += 1;
    counts.verdicts[record.verdict] += 1;
  }

  list(): BreakdownList {
    return {
      keys: [...this.keys]
        .map(([key, c]) => ({ key, links: c.links, verdicts: { ...c.verdicts } }))
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

/**
 * What ended a link (as enforcing did, or would have): delivered whole; stopped by the policy (link refused, body
 * withheld, body cut to its allowed part); failed (the read did not complete: the host or the server, not the policy);
 * never read (allowed, the host did not ask).
 */
export function outcomeOf(r: ReportRecord): 'delivered' | 'refused' | 'withheld' | 'cut' | 'failed' | 'unread' {
  if (r.linkEffect === 'deny') return 'refused';
  if (r.verdict === 'unverifiable') return 'failed';
  if (r.verdict === 'body-obtained') return 'delivered';
  if (r.readEffect === 'deny') return 'withheld';
  if (r.readEffect === 'partial') return 'cut';
  return 'unread';
}

/**
 * The counts of one mode's records (enforce or observe), bounded: at most `maxListed` links listed and
 * `maxBreakdownKeys` keys per breakdown. In observe mode the hints are worded for what enforcing would have done.
 */
export class ModeTally {
  private links = 0;
  private readonly stages = { discovered: 0, requested: 0, received: 0, delivered: 0 };
  private readonly verdicts = zeroVerdicts();
  private readonly reasons = new Map<string, number>();
  private readonly next = new Map<string, number>();
  private readonly byServer = new Breakdown();
  private readonly byTool = new Breakdown();
  private readonly byHost = new Breakdown();
  private readonly byFrontEnd = new Breakdown();
  private readonly byPolicy = new Breakdown();
  private notDeliveredTotal = 0;
  private readonly listed: ListedLink[] = [];
  /** links the policy would have stopped (`wouldDeny`, read failures left out: those are not the policy's doing) */
  wouldDeny = 0;
  private readonly outcomes = {
    delivered: 0,
    refused: 0,
    withheld: 0,
    cut: 0,
    failed: 0,
    unread: 0,
    reachedWouldWithhold: 0,
    workingReadsWouldBreak: 0,
  };
  private readonly stoppedBy = new Map<string, number>();

  constructor(
    private readonly observe: boolean,
    private readonly maxListed: number,
  ) {}

  /** Counts one record of this mode found at `source`:`line`. */
  add(source: string, line: number, r: ReportRecord): void {
    this.links += 1;
    this.stages.discovered += 1;
    if (r.requested) this.stages.requested += 1;
    if (r.received) this.stages.received += 1;
    if (r.delivered) this.stages.delivered += 1;
    this.verdicts[r.verdict] += 1;
    const outcome = outcomeOf(r);
    this.outcomes[outcome] += 1;
    if (outcome === 'refused' || outcome === 'withheld' || outcome === 'cut') {
      for (const code of r.reasons) bump(this.stoppedBy, code);
      if (r.wouldDeny) this.wouldDeny += 1;
    }
    if (this.observe && r.recordedDelivered && r.verdict !== 'body-obtained') this.outcomes.reachedWouldWithhold += 1;
    // a read that was answered and passed on, which enforcing would refuse or withhold whole: the host would get an error
    if (this.observe && r.recordedDelivered && r.recordedRequested && (outcome === 'refused' || outcome === 'withheld'))
      this.outcomes.workingReadsWouldBreak += 1;
    for (const code of r.reasons) bump(this.reasons, code);
    if (r.next !== null) bump(this.next, r.next.boundary);
    this.byServer.add(r.server, r);
    this.byTool.add(r.tool ?? '(no tool)', r);
    this.byHost.add(r.host, r);
    this.byFrontEnd.add(r.frontEnd, r);
    this.byPolicy.add(`${r.policy.id}@${r.policy.version} ${r.policy.digest}`, r);
    if (r.verdict === 'body-obtained') return;
    this.notDeliveredTotal += 1;
    if (this.listed.length < this.maxListed)
      this.listed.push({
        source,
        line,
        at: r.at,
        // masked again: a records file written by something else must not carry userinfo or query values on
        uri: maskUri(r.uri),
        server: r.server,
        tool: r.tool,
        host: r.host,
        frontEnd: r.frontEnd,
        mode: r.mode,
        verdict: r.verdict,
        recordedVerdict: r.recordedVerdict,
        wouldDeny: r.wouldDeny,
        reasons: r.reasons,
        next: r.next,
      });
  }

  /** The counts so far; `sourceRank` orders the listed links as their records came (file by file, line by line). */
  finish(sourceRank: (source: string) => number = () => 0): ModeCounts {
    const listed = [...this.listed].sort((a, b) => sourceRank(a.source) - sourceRank(b.source) || a.line - b.line);
    const hints: ModeCounts['hints'] = {};
    for (const code of this.reasons.keys()) {
      const help = (reasonCodeHelp as Record<string, { means: string; checkNext: string } | undefined>)[code];
      if (help === undefined) continue;
      hints[code] = this.observe
        ? { means: observeHint(help.means), checkNext: observeHint(help.checkNext) }
        : { means: help.means, checkNext: help.checkNext };
    }
    return {
      links: this.links,
      stages: { ...this.stages },
      verdicts: { ...this.verdicts },
      reasons: sortedCounts(this.reasons),
      hints,
      next: sortedCounts(this.next),
      byServer: this.byServer.list(),
      byTool: this.byTool.list(),
      byHost: this.byHost.list(),
      byFrontEnd: this.byFrontEnd.list(),
      byPolicy: this.byPolicy.list(),
      outcomes: { ...this.outcomes, stoppedBy: sortedCounts(this.stoppedBy) },
      notDelivered: { total: this.notDeliveredTotal, listed, limit: this.maxListed },
    };
  }
}
