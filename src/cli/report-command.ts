import { createReadStream } from 'node:fs';
import { access, constants, writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { Readable } from 'node:stream';
import { fileReadError } from '../errors.ts';
import { formatReportHtml } from '../report/format-report-html.ts';
import { formatReportMarkdown } from '../report/format-report-markdown.ts';
import { formatReportText } from '../report/format-report-text.ts';
import { reportVerdicts } from '../report/report-counts.ts';
import { createReportTally, defaultMaxListedLinks, type ReportTally } from '../report/report-tally.ts';
import { displayPath } from '../review/display-path.ts';
import type { CliIo } from './cli-io.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { formatOption } from './format-option.ts';
import { useColour } from './probe.ts';
import { readLines } from './read-lines.ts';

/** Longest records line read, bytes; a longer line is skipped as bad without being held. */
export const maxRecordLineBytes = 4 * 1024 * 1024;

/** `linkgate report` (DESIGN §10): what happened to every link of one or more records files, streamed. */
export const reportDefinition = defineCommand({
  name: 'report',
  summary: 'report on records files: the funnel, verdicts, reasons, breakdowns, links not delivered',
  synopsis:
    '[--format text|markdown|html|json] [--out FILE] [--since TIME] [--server ID] [--verdict V] [--max-links N] [RECORDS.jsonl…]',
  description: [
    'reads link records (JSON Lines, as `proxy --records`, `hook --records` and `probe --json` write them; docs/records.md) from the files, or from stdin when none is given (`-` names stdin), one line at a time: memory stays flat however many records there are.',
    'counts how many links reached each stage (the funnel), the verdicts, the reason codes with what to check next, and the counts by server, tool, host, front end and policy, and lists the links not delivered whole (every verdict but `body-obtained`) with the boundary to check next: the first `--max-links` in full, the rest counted. records written in observe mode are counted apart, as enforcing would have ended them (their links that would not be delivered are listed the same way). a line that is not a record is named on stderr with its line number and skipped; the counts say how many.',
    'formats: `text` for a terminal (100 columns, colour only on a terminal), `markdown` for a review or a pull request, `html` one self-contained page that opens from a file (no script, no network: charts as inline svg, a table of links to filter), `json` for machines (schemas/report.schema.json).',
  ],
  options: {
    format: formatOption(['text', 'markdown', 'html', 'json'], 'text, markdown, html or json'),
    out: { type: 'string', value: 'FILE', description: 'write the report to FILE instead of stdout' },
    since: {
      type: 'string',
      value: 'TIME',
      description:
        'only links discovered at or after TIME: ISO 8601 (`2026-12-01`, `2026-12-01T09:00Z`) or an age (`30m`, `24h`, `7d`)',
    },
    server: { type: 'string', value: 'ID', multiple: true, description: 'only links of this server id' },
    verdict: {
      type: 'string',
      value: 'V',
      multiple: true,
      choices: reportVerdicts,
      description: 'only links with this verdict',
    },
    'max-links': {
      type: 'string',
      value: 'N',
      default: String(defaultMaxListedLinks),
      description: 'links not delivered listed in full, at most (the rest are counted)',
    },
  },
  positionals: [{ name: 'RECORDS.jsonl…', description: 'records files; stdin when none is given, `-` for stdin' }],
  example:
    'linkgate probe --json --policy policies/default.yaml --tool show-links -- node dist/lib/demo/demo-server.js | linkgate report --format markdown',
  exitCodes: {
    0: 'every line was a record',
    1: 'some lines were not records (skipped, named on stderr)',
    2: 'usage error, or a records file cannot be read or the output written',
  },
  run: async ({ values, positionals, usageError }, io) => {
    const maxListed = Number(values['max-links']);
    if (!Number.isSafeInteger(maxListed) || maxListed < 0)
      return usageError('`--max-links` must be a whole number ≥ 0');
    let sinceMs: number | null = null;
    if (values.since !== undefined) {
      sinceMs = parseSince(values.since, Date.now());
      if (sinceMs === null)
        return usageError(`\`--since\` must be an ISO 8601 time or an age such as \`24h\`, got \`${values.since}\``);
    }
    const sources = positionals.length === 0 ? ['-'] : [...positionals];
    if (sources.filter((s) => s === '-').length > 1) return usageError('stdin (`-`) may be named once');
    for (const source of sources) {
      if (source === '-') continue;
      try {
        await access(resolvePath(io.cwd, source), constants.R_OK);
      } catch (error) {
        io.stderr.write(
          `linkgate: ${fileReadError('INPUT_INVALID', 'records file', displayPath(io.cwd, source), error).message}\n`,
        );
        return 2;
      }
    }
    const tally = createReportTally({
      sinceMs,
      servers: values.server ?? [],
      // the parser has checked each against the choices
      verdicts: (values.verdict ?? []).filter((v): v is (typeof reportVerdicts)[number] =>
        (reportVerdicts as readonly string[]).includes(v),
      ),
      maxListed,
    });
    const shown = sources.map((s) => (s === '-' ? '-' : displayPath(io.cwd, s)));
    for (const [i, source] of sources.entries()) {
      const input = source === '-' ? io.stdin : createReadStream(resolvePath(io.cwd, source));
      try {
        await tallyLines(tally, input, shown[i] ?? source, io);
      } catch (error) {
        io.stderr.write(
          `linkgate: ${fileReadError('INPUT_INVALID', 'records file', shown[i] ?? source, error).message}\n`,
        );
        return 2;
      }
    }
    const counts = tally.finish(shown);
    const format = values.format;
    const text =
      format === 'json'
        ? `${JSON.stringify(counts, null, 2)}\n`
        : format === 'markdown'
          ? formatReportMarkdown(counts)
          : format === 'html'
            ? formatReportHtml(counts)
            : formatReportText(counts, values.out === undefined && useColour(io));
    if (values.out === undefined) io.stdout.write(text);
    else {
      try {
        await writeFile(resolvePath(io.cwd, values.out), text, 'utf8');
      } catch (error) {
        io.stderr.write(
          `linkgate: cannot write \`${displayPath(io.cwd, values.out)}\`: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}\n`,
        );
        return 2;
      }
    }
    return counts.skipped > 0 ? 1 : 0;
  },
});

/** `linkgate report` as a runnable command. */
export const reportCommand = commandRunner(reportDefinition);

async function tallyLines(tally: ReportTally, input: Readable, source: string, io: CliIo): Promise<void> {
  for await (const line of readLines(input, maxRecordLineBytes)) {
    const skipped =
      line.kind === 'line'
        ? tally.addLine(source, line.number, line.text)
        : tally.addBadLine(source, line.number, `line of ${line.bytes} bytes, over the ${maxRecordLineBytes} byte cap`);
    if (skipped !== null) io.stderr.write(`${skipped.source}:${skipped.line}: skipped: ${skipped.message}\n`);
  }
}

/** `--since`: an ISO 8601 date or time (`2026-12-01`, `2026-12-01T09:00Z`), or an age before `nowMs` (`30m`, `24h`, `7d`); epoch ms, or null when it is neither. */
export function parseSince(text: string, nowMs: number): number | null {
  const age = /^(\d{1,6})(s|m|h|d)$/.exec(text);
  if (age !== null) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[age[2] as 's' | 'm' | 'h' | 'd'];
    return nowMs - Number(age[1]) * unit;
  }
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return null;
  // a date alone or a time without offset is read as utc, so a report does not depend on the machine's zone
  const withZone = /T|\s/.test(text) && !/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? `${text.replace(' ', 'T')}Z` : text;
  const ms = Date.parse(withZone.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : ms;
}
