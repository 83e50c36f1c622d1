import { z } from 'zod';

/** The four verdicts (DESIGN §2), in funnel order: the order every report lists them. */
export const reportVerdicts = ['body-obtained', 'partially-interpreted', 'link-only', 'unverifiable'] as const;

/** The four stages (DESIGN §2), in the order a link reaches them. */
export const reportStages = ['discovered', 'requested', 'received', 'delivered'] as const;

/** The three verdicts of an embedded resource (a body the tool result carried itself). */
export const embeddedVerdicts = ['embedded-delivered', 'embedded-partial', 'embedded-withheld'] as const;

const count = z.number().int().min(0);

const verdictCountsSchema = z
  .object(
    Object.fromEntries(reportVerdicts.map((v) => [v, count])) as Record<(typeof reportVerdicts)[number], typeof count>,
  )
  .strict()
  .describe('records per verdict');

const breakdownSchema = z
  .object({
    key: z.string().describe('the server id, tool name, host, front end or policy `id@version digest`'),
    links: count.describe('records with this key'),
    verdicts: verdictCountsSchema,
  })
  .strict();

const breakdownListSchema = z
  .object({
    keys: z.array(breakdownSchema).describe('the most frequent keys first, ties by key'),
    otherKeys: count.describe(
      'distinct keys past the per-breakdown cap, their records counted under the key `(other)`',
    ),
  })
  .strict();

/** One link that was not delivered whole (verdict other than `body-obtained`), as the report lists it. */
export const listedLinkSchema = z
  .object({
    source: z.string().describe('the records file (`-` for stdin)'),
    line: z.number().int().min(1).describe('1-based line of the record in `source`'),
    at: z.string().describe('ISO 8601 time the link was discovered'),
    uri: z.string().describe('masked uri, as recorded'),
    server: z.string(),
    tool: z.string().nullable(),
    host: z.string().describe('one name per host (see `byHost`)'),
    frontEnd: z.string().describe('the front end that wrote the record (see `byFrontEnd`)'),
    mode: z.enum(['enforce', 'observe']),
    verdict: z
      .enum(reportVerdicts)
      .describe('the verdict counted: as recorded in enforce mode, what enforcing would have given in observe mode'),
    recordedVerdict: z
      .enum(reportVerdicts)
      .describe('the verdict in the record (observe mode: what happened; nothing was withheld)'),
    wouldDeny: z.boolean().describe('observe mode: the gate would have denied it'),
    reasons: z.array(z.string()).describe('reason codes of the link and read decisions, each once'),
    next: z
      .object({ boundary: z.string(), hint: z.string() })
      .strict()
      .nullable()
      .describe('the boundary to check next (observe mode: what enforcing would have done)'),
  })
  .strict();

/** The counts of one mode's records; observe-mode records are counted as enforcing would have ended them. */
const modeCountsSchema = z
  .object({
    links: count.describe('link records of this mode counted'),
    stages: z
      .object(
        Object.fromEntries(reportStages.map((s) => [s, count])) as Record<(typeof reportStages)[number], typeof count>,
      )
      .strict()
      .describe('records that reached each stage: the funnel'),
    verdicts: verdictCountsSchema,
    reasons: z
      .record(z.string(), count)
      .describe('records per reason code (a code counts once per record, from the link and read decisions)'),
    hints: z
      .record(z.string(), z.object({ means: z.string(), checkNext: z.string() }).strict())
      .describe('for each built-in reason code counted: what it means and what to check next'),
    next: z.record(z.string(), count).describe('records per `next.boundary`: where to look next'),
    byServer: breakdownListSchema,
    byTool: breakdownListSchema.describe('key `(no tool)` for reads not from a tool result'),
    byHost: breakdownListSchema.describe(
      "one name per host: the hook's `host.name`, else the client name the host reported mapped to it (`codex-mcp-client` is `codex`), else `(not recorded)`",
    ),
    byFrontEnd: breakdownListSchema.describe(
      '`proxy`, `hook`, `decorator`, `client-helper` or `probe` (`stages.discovered.frontEnd`), else `(not recorded)`',
    ),
    byPolicy: breakdownListSchema.describe('key `id@version sha256:<hex>` of the link decision'),
    outcomes: z
      .object({
        delivered: count.describe('links delivered whole'),
        refused: count.describe('stopped by the policy: the link decision denied it, so it was not read'),
        withheld: count.describe('stopped by the policy: the read decision withheld the whole body'),
        cut: count.describe('stopped by the policy in part: only the allowed items of the body delivered'),
        failed: count.describe(
          "the read did not complete (server error, timeout, the host's own refusal): the host or the server, not the policy",
        ),
        unread: count.describe('allowed, but the host never asked for the read'),
        reachedWouldWithhold: count.describe(
          'observe mode: bodies that reached the model which enforcing would withhold, whole or in part (enforce: 0)',
        ),
        workingReadsWouldBreak: count.describe(
          'observe mode: reads answered and passed on which enforcing would refuse or withhold whole, so the host would get an error (enforce: 0)',
        ),
        stoppedBy: z
          .record(z.string(), count)
          .describe('reason codes of the links the policy stopped (refused, withheld, cut), most frequent first'),
      })
      .strict()
      .describe('what ended each link: the policy, or the host or server'),
    notDelivered: z
      .object({
        total: count.describe(
          'records not delivered whole (observe mode: would not be): every verdict but `body-obtained`',
        ),
        listed: z.array(listedLinkSchema).describe('the first of them, in input order, up to `limit`'),
        limit: count.describe('the most links listed per mode (`--max-links`); the rest are counted only'),
      })
      .strict(),
  })
  .strict();

/** One input line that was not a record: where it is and why it was skipped. */
export const skippedLineSchema = z
  .object({
    source: z.string(),
    line: z.number().int().min(1).describe('1-based'),
    message: z.string().describe('one lowercase line: why the line is not a record'),
  })
  .strict();

/** The `json` output of `linkgate report` (DESIGN §10): counts only, no record bodies; `schemas/report.schema.json` is generated from it. */
export const reportCountsSchema = z
  .object({
    sources: z.array(z.string()).describe('the records files read, in order (`-` for stdin)'),
    filters: z
      .object({
        since: z.string().nullable().describe('ISO 8601: records discovered before it are left out'),
        servers: z.array(z.string()).describe('only records of these server ids; empty: every server'),
        verdicts: z
          .array(z.enum(reportVerdicts))
          .describe(
            'only records with these verdicts (observe mode: the verdict enforcing would have given); empty: every verdict',
          ),
      })
      .strict(),
    lines: count.describe('non-empty input lines read'),
    filteredOut: count.describe('records left out by the filters'),
    records: count.describe('link records read, discovery records (`kind: "discovered"`) included'),
    superseded: count.describe(
      'records of a link that another record of the same link (mode, host, server, uri) took the place of: a read after its discovery, an attempt at a link refused in the tool result',
    ),
    links: count.describe('distinct links counted (after the filters), both modes: one per mode, host, server and uri'),
    enforce: modeCountsSchema.describe('records written in enforce mode: what the gate did'),
    observe: modeCountsSchema
      .extend({
        wouldDeny: count.describe(
          'links the policy would have stopped (`wouldDeny`); read failures, the host or server, are not counted; nothing was enforced',
        ),
      })
      .describe('records written in observe mode, counted as enforcing would have ended them; nothing was enforced'),
    embedded: z
      .object({
        records: count.describe('embedded-resource records (`kind: "embedded"`; not links, not in the funnel)'),
        verdicts: z
          .object(
            Object.fromEntries(embeddedVerdicts.map((v) => [v, count])) as Record<
              (typeof embeddedVerdicts)[number],
              typeof count
            >,
          )
          .strict(),
      })
      .strict(),
    skipped: count.describe('lines that were not records, skipped'),
    skippedLines: z.array(skippedLineSchema).describe('the first skipped lines, up to the same `limit`'),
  })
  .strict();

/** The counts of one mode's records. */
export type ModeCounts = z.infer<typeof modeCountsSchema>;
/** Counts per verdict. */
export type VerdictCounts = Record<(typeof reportVerdicts)[number], number>;
/** One key of a breakdown with its counts. */
export type Breakdown = z.infer<typeof breakdownSchema>;
/** A breakdown: its keys, most frequent first, and how many keys were folded into `(other)`. */
export type BreakdownList = z.infer<typeof breakdownListSchema>;
/** One link not delivered whole. */
export type ListedLink = z.infer<typeof listedLinkSchema>;
/** One skipped input line. */
export type SkippedLine = z.infer<typeof skippedLineSchema>;
/** The counts of a report: the `json` output, and what every other format draws. */
export type ReportCounts = z.infer<typeof reportCountsSchema>;

/** One mode's part of a report, as the formats draw it: `observe` counts say what enforcing would have done. */
export interface ModeSection {
  mode: 'enforce' | 'observe';
  counts: ModeCounts;
  /** observe mode: records the gate would have denied; enforce mode: 0 */
  wouldDeny: number;
}

/** The modes a report draws, enforce first: each mode with records, or enforce alone when there are none. */
export function modeSections(counts: ReportCounts): ModeSection[] {
  const sections: ModeSection[] = [];
  if (counts.enforce.links > 0 || counts.observe.links === 0)
    sections.push({ mode: 'enforce', counts: counts.enforce, wouldDeny: 0 });
  if (counts.observe.links > 0)
    sections.push({ mode: 'observe', counts: counts.observe, wouldDeny: counts.observe.wouldDeny });
  return sections;
}

/** The line that opens a mode's section: null for an enforce-only report (it needs none). */
export function modeIntro(section: ModeSection, sections: number): string | null {
  const n = section.counts.links;
  const links = `${n} link${n === 1 ? '' : 's'}`;
  if (section.mode === 'enforce') return sections > 1 ? `enforce mode: ${links}, as the gate ended them` : null;
  return `observe mode: ${links}, nothing was enforced; counted below as enforcing would have ended them`;
}

/**
 * The numbers a rollout decides on, one line per mode, for the first lines of every format. Observe: bodies that
 * reached the model which enforcing would withhold, working reads it would break, and read failures that were the
 * host's or server's doing. Enforce: what the policy stopped and why, apart from what failed on its own.
 */
export function rolloutLine(section: ModeSection): string {
  const n = section.counts.links;
  const o = section.counts.outcomes;
  const links = `${n} link${n === 1 ? '' : 's'}`;
  const failed = `${o.failed} read failure${o.failed === 1 ? '' : 's'} the host's or server's doing, not the policy's`;
  if (section.mode === 'observe')
    return `observe mode, ${links}, nothing enforced: if enforced, ${o.reachedWouldWithhold} bod${o.reachedWouldWithhold === 1 ? 'y' : 'ies'} that reached the model would be withheld and ${o.workingReadsWouldBreak} working read${o.workingReadsWouldBreak === 1 ? '' : 's'} would break; ${failed}`;
  const stopped = o.refused + o.withheld + o.cut;
  const top = Object.entries(o.stoppedBy)
    .slice(0, 3)
    .map(([code, k]) => `${code} ${k}`)
    .join(', ');
  return `enforce mode, ${links}: the policy stopped ${stopped}, ${o.refused} refused, ${o.withheld} withheld, ${o.cut} cut${top === '' ? '' : `, most often ${top}`}; ${failed}; ${o.delivered} delivered whole, ${o.unread} never read`;
}
