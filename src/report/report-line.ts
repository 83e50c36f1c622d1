import type { PolicyRef } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import { recordKindOf } from '../record/record-kind.ts';
import { type CountedOutcome, type DecisionSummary, wouldBeEnforced } from './enforced-outcome.ts';
import { frontEndOf, hostOf } from './host-name.ts';
import { embeddedVerdicts, reportVerdicts } from './report-counts.ts';

/** What a report reads of one link record: only the fields it counts, checked; everything else is ignored. */
export interface ReportRecord {
  uri: string;
  /** `observe` for a record written in observe mode; a report keeps the two apart */
  mode: 'enforce' | 'observe';
  /** the verdict counted: the record's own in enforce mode, what enforcing would have given in observe mode */
  verdict: (typeof reportVerdicts)[number];
  /** the verdict the record holds (observe mode: what happened, the body was not withheld) */
  recordedVerdict: (typeof reportVerdicts)[number];
  next: { boundary: string; hint: string } | null;
  at: string;
  server: string;
  tool: string | null;
  /** one name per host (`hostOf`) */
  host: string;
  /** the front end that wrote the record (`frontEndOf`) */
  frontEnd: string;
  requested: boolean;
  received: boolean;
  delivered: boolean;
  /** reason codes of the link and read decisions, each once, in order */
  reasons: string[];
  policy: PolicyRef;
  wouldDeny: boolean;
  /** effect of the link decision, and of the read decision (null: no read decided) */
  linkEffect: string;
  readEffect: string | null;
  /** as recorded (observe mode: what happened): the host asked for the read; a body reached the model */
  recordedRequested: boolean;
  recordedDelivered: boolean;
  /**
   * true for a discovery record (`kind: "discovered"`): written as the tool result listing the link was passed on,
   * superseded by any later record of the same link
   */
  provisional: boolean;
}

/** What makes records one link in a report: mode, host, server and masked uri (a later record supersedes an earlier one). */
export function linkKey(r: ReportRecord): string {
  return `${r.mode}\u0000${r.host}\u0000${r.server}\u0000${r.uri}`;
}

/** One input line as the report reads it: a link record, an embedded-resource record, a line to pass over, or why it is bad. */
export type ReportLine =
  | { kind: 'link'; record: ReportRecord }
  | { kind: 'embedded'; verdict: (typeof embeddedVerdicts)[number] }
  | { kind: 'summary' }
  | { kind: 'bad'; message: string };

const verdictSet: ReadonlySet<string> = new Set(reportVerdicts);
const embeddedSet: ReadonlySet<string> = new Set(embeddedVerdicts);

// thrown inside readReportLine only, caught there: a bad line is a value to its caller
class BadLine extends Error {}

const bad = (message: string): never => {
  throw new BadLine(message);
};

function object(value: unknown, field: string): Record<string, unknown> {
  return isRecord(value) ? value : bad(`\`${field}\` is not an object`);
}

function string(value: unknown, field: string): string {
  return typeof value === 'string' ? value : bad(`\`${field}\` is not a string`);
}

function stageFilled(value: unknown, field: string): boolean {
  if (value === null) return false;
  object(value, field);
  return true;
}

function policyOf(value: unknown, field: string): PolicyRef {
  const p = object(value, field);
  return {
    id: string(p['id'], `${field}.id`),
    version: string(p['version'], `${field}.version`),
    digest: string(p['digest'], `${field}.digest`),
  };
}

// adds the decision's reason codes to `into` (each once) and returns its effect and `rule` (code) pairs for hints
function readDecision(decision: Record<string, unknown>, field: string, into: string[]): DecisionSummary {
  const reasons = decision['reasons'];
  if (!Array.isArray(reasons)) bad(`\`${field}.reasons\` is not a list`);
  const pairs: string[] = [];
  for (const [i, r] of (reasons as unknown[]).entries()) {
    const reason = object(r, `${field}.reasons[${i}]`);
    const code = string(reason['code'], `${field}.reasons[${i}].code`);
    if (!into.includes(code)) into.push(code);
    const rule = typeof reason['rule'] === 'string' ? reason['rule'] : '?';
    const pair = `\`${rule}\` (${code})`;
    if (!pairs.includes(pair)) pairs.push(pair);
  }
  const effect = typeof decision['effect'] === 'string' ? decision['effect'] : 'deny';
  return { effect, described: pairs.length === 0 ? 'no reason given' : pairs.join(', ') };
}

/**
 * Reads one non-empty input line: a link record (DESIGN §4c) or a link's discovery record (`provisional`) with the
 * fields a report counts checked, an embedded
 * record or the probe's summary line (`kind`), or `bad` with a lowercase message naming the field. Never throws.
 */
export function readReportLine(text: string): ReportLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'bad', message: 'not json' };
  }
  try {
    const r = object(value, 'line');
    const kind = recordKindOf(r);
    if (kind === 'summary') return { kind: 'summary' };
    if (kind === 'unknown') return bad(`unknown record \`kind\``);
    if (kind === 'embedded') {
      const verdict = string(r['verdict'], 'verdict');
      return embeddedSet.has(verdict)
        ? { kind: 'embedded', verdict: verdict as (typeof embeddedVerdicts)[number] }
        : bad('`verdict` is not an embedded verdict');
    }
    const verdict = string(r['verdict'], 'verdict');
    if (!verdictSet.has(verdict)) bad('`verdict` is not one of the four verdicts');
    const nextValue = r['next'];
    let next: ReportRecord['next'] = null;
    if (nextValue !== null) {
      const n = object(nextValue, 'next');
      next = { boundary: string(n['boundary'], 'next.boundary'), hint: string(n['hint'], 'next.hint') };
    }
    const stages = object(r['stages'], 'stages');
    const discovered = object(stages['discovered'], 'stages.discovered');
    const decisions = object(r['decisions'], 'decisions');
    const link = object(decisions['link'], 'decisions.link');
    const reasons: string[] = [];
    const linkDecision = readDecision(link, 'decisions.link', reasons);
    const read = decisions['read'];
    const readDecided = read === null ? null : readDecision(object(read, 'decisions.read'), 'decisions.read', reasons);
    const tool = discovered['tool'];
    if (tool !== null) string(tool, 'stages.discovered.tool');
    const wouldDeny = r['wouldDeny'];
    if (wouldDeny !== undefined && typeof wouldDeny !== 'boolean') bad('`wouldDeny` is not a boolean');
    const observe = r['mode'] === 'observe';
    const recorded: CountedOutcome = {
      verdict: verdict as ReportRecord['verdict'],
      next,
      requested: stageFilled(stages['requested'], 'stages.requested'),
      received: stageFilled(stages['received'], 'stages.received'),
      delivered: stageFilled(stages['delivered'], 'stages.delivered'),
    };
    const counted = observe ? wouldBeEnforced(recorded, linkDecision, readDecided) : recorded;
    return {
      kind: 'link',
      record: {
        uri: string(r['uri'], 'uri'),
        mode: observe ? 'observe' : 'enforce',
        verdict: counted.verdict,
        recordedVerdict: recorded.verdict,
        next: counted.next,
        at: string(discovered['at'], 'stages.discovered.at'),
        server: string(discovered['server'], 'stages.discovered.server'),
        tool: tool as string | null,
        host: hostOf(r, discovered),
        frontEnd: frontEndOf(r, discovered),
        requested: counted.requested,
        received: counted.received,
        delivered: counted.delivered,
        reasons,
        policy: policyOf(link['policy'], 'decisions.link.policy'),
        wouldDeny: wouldDeny === true,
        linkEffect: linkDecision.effect,
        readEffect: readDecided?.effect ?? null,
        recordedRequested: recorded.requested,
        recordedDelivered: recorded.delivered,
        provisional: kind === 'discovered' || kind === 'requested',
      },
    };
  } catch (error) {
    if (error instanceof BadLine) return { kind: 'bad', message: error.message };
    throw error;
  }
}
