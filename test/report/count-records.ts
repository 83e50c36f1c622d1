// Counts made directly from whole records, written apart from src/report, so a report's json can be checked
// against them: the funnel, verdicts, reasons, and the breakdowns.
import type { LinkRecord } from '../../src/record/link-record.ts';

type Line = LinkRecord & { kind?: string };

/**
 * The records a report counts, one per link, worked out here apart from src/report: records of one mode, host, server
 * and uri are one link, and a later record takes the earlier one's place unless it got less far (a discovery record,
 * `kind: "discovered"`, after any other; a record without a read after one with). In the order their kept records came.
 */
export function oneRecordPerLink(lines: readonly Line[]): LinkRecord[] {
  const reach = (r: Line) => (r.kind === 'discovered' ? 0 : r.stages.requested !== null ? 2 : 1);
  const kept = new Map<string, { at: number; record: Line }>();
  for (const [at, r] of lines.entries()) {
    const host = r.host?.name ?? r.stages.discovered.client?.name ?? '';
    const key = [r.mode ?? 'enforce', host, r.stages.discovered.server, r.uri].join(' ');
    const earlier = kept.get(key);
    if (earlier === undefined || reach(r) >= reach(earlier.record)) kept.set(key, { at, record: r });
  }
  return [...kept.values()]
    .sort((a, b) => a.at - b.at)
    .map(({ record }) => {
      const { kind: _, ...rest } = record;
      return rest;
    });
}

/** What a test expects of `report --format json` for these link records (no filters, nothing skipped). */
export function countRecords(records: readonly LinkRecord[]) {
  const byKey = (key: (r: LinkRecord) => string) => {
    const out: Record<string, number> = {};
    for (const r of records) out[key(r)] = (out[key(r)] ?? 0) + 1;
    return out;
  };
  const reasons: Record<string, number> = {};
  for (const r of records) {
    const codes = new Set([...r.decisions.link.reasons, ...(r.decisions.read?.reasons ?? [])].map((x) => x.code));
    for (const c of codes) reasons[c] = (reasons[c] ?? 0) + 1;
  }
  const verdicts = { 'body-obtained': 0, 'partially-interpreted': 0, 'link-only': 0, unverifiable: 0 };
  for (const r of records) verdicts[r.verdict] += 1;
  return {
    links: records.length,
    stages: {
      discovered: records.length,
      requested: records.filter((r) => r.stages.requested !== null).length,
      received: records.filter((r) => r.stages.received !== null).length,
      delivered: records.filter((r) => r.stages.delivered !== null).length,
    },
    verdicts,
    reasons,
    servers: byKey((r) => r.stages.discovered.server),
    tools: byKey((r) => r.stages.discovered.tool ?? '(no tool)'),
    policies: byKey((r) => {
      const p = r.decisions.link.policy;
      return `${p.id}@${p.version} ${p.digest}`;
    }),
    wouldDeny: records.filter((r) => r.wouldDeny === true).length,
    notDelivered: records.filter((r) => r.verdict !== 'body-obtained').map((r) => r.uri),
  };
}

interface ModePart {
  links: number;
  stages: unknown;
  verdicts: unknown;
  reasons: Record<string, number>;
  byServer: { keys: { key: string; links: number }[] };
  byTool: { keys: { key: string; links: number }[] };
  byPolicy: { keys: { key: string; links: number }[] };
  notDelivered: { listed: { uri: string }[] };
}

/** The parts of a report's json that `countRecords` predicts, in the same shape, for records of one mode (enforce unless said). */
export function reportedCounts(
  json: { links: number; enforce: ModePart; observe: ModePart & { wouldDeny: number } },
  mode: 'enforce' | 'observe' = 'enforce',
) {
  const keys = (list: { keys: { key: string; links: number }[] }) =>
    Object.fromEntries(list.keys.map((k) => [k.key, k.links]));
  const part = json[mode];
  return {
    links: json.links,
    stages: part.stages,
    verdicts: part.verdicts,
    reasons: part.reasons,
    servers: keys(part.byServer),
    tools: keys(part.byTool),
    policies: keys(part.byPolicy),
    wouldDeny: json.observe.wouldDeny,
    notDelivered: part.notDelivered.listed.map((l) => l.uri),
  };
}
