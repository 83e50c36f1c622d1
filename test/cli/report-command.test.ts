import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { parseFragment, serialize } from 'parse5';
import { describe, expect, test } from 'vitest';
import { parseSince, reportCommand } from '../../src/cli/report-command.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import type { ReportCounts } from '../../src/report/report-counts.ts';
import { reportTextColumns } from '../../src/report/format-report-text.ts';
import { runCommand } from '../helpers/run-cli.ts';
import { deny, obtainedRecord } from '../record/record-fixtures.ts';

const hostile = '<img src=x onerror=alert(1)>';

function deniedRecord(uri: string, tool: string, server = 'docs'): LinkRecord {
  const r = obtainedRecord();
  return {
    ...r,
    uri,
    verdict: 'link-only',
    next: { boundary: 'policy', hint: `link denied by \`links.schemes\` ${hostile}` },
    stages: {
      discovered: { ...r.stages.discovered, uri, tool, server },
      requested: null,
      received: null,
      delivered: null,
    },
    decisions: { link: deny(), read: null },
  };
}

const lines = [
  JSON.stringify(obtainedRecord()),
  JSON.stringify(
    deniedRecord(`https://example.com/${hostile}|x`, `\u001b[31mred\u001b[0m ${hostile} | x`, `srv-${hostile}`),
  ),
  JSON.stringify(deniedRecord(`demo://${'very-long-path/'.repeat(20)}`, 'find')),
].join('\n');

async function dir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'linkgate-report-'));
}

const report = (args: string[], stdin = '', tty = false, env: Record<string, string> = {}) =>
  runCommand(reportCommand, args, { stdin, tty, env });

describe('linkgate report', () => {
  test('reads stdin when no file is given; json counts; exit 0 when every line is a record', async () => {
    const run = await report(['--format', 'json'], `${lines}\n`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const counts = JSON.parse(run.stdout) as ReportCounts;
    expect(counts.sources).toEqual(['-']);
    expect([counts.links, counts.enforce.verdicts['link-only'], counts.enforce.notDelivered.total]).toEqual([3, 2, 2]);
  });

  test('several files in order, `-` among them; a bad line is named with its line number, skipped, and exits 1', async () => {
    const d = await dir();
    await writeFile(path.join(d, 'a.jsonl'), `${lines}\nnot json\n`);
    await writeFile(path.join(d, 'b.jsonl'), `\n${JSON.stringify(obtainedRecord())}\n{"uri":1}\n`);
    const run = await runCommand(reportCommand, ['--format', 'json', 'a.jsonl', '-', 'b.jsonl'], {
      cwd: d,
      stdin: `${JSON.stringify(obtainedRecord())}\n`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('a.jsonl:4: skipped: not json\nb.jsonl:3: skipped: `verdict` is not a string\n');
    const counts = JSON.parse(run.stdout) as ReportCounts;
    expect(counts.sources).toEqual(['a.jsonl', '-', 'b.jsonl']);
    // three of the five records are of one link (the same record in each file): counted once
    expect([counts.records, counts.links, counts.skipped, counts.lines]).toEqual([5, 3, 2, 7]);
  });

  test('usage errors and unreadable files exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--format', 'pdf'], /unknown format `pdf`/],
      [['--verdict', 'fine'], /unknown verdict `fine`/],
      [['--since', 'last tuesday'], /`--since` must be an ISO 8601 time/],
      [['--max-links', 'many'], /`--max-links` must be a whole number/],
      [['-', '-'], /stdin \(`-`\) may be named once/],
      [['no-such-file.jsonl'], /cannot read records file `no-such-file.jsonl`: no such file/],
    ];
    for (const [args, message] of cases) {
      const run = await report(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
  });

  test('--out writes the report to a file and nothing to stdout', async () => {
    const d = await dir();
    const run = await runCommand(reportCommand, ['--format', 'markdown', '--out', 'r.md'], { cwd: d, stdin: lines });
    expect([run.code, run.stdout]).toEqual([0, '']);
    expect(await readFile(path.join(d, 'r.md'), 'utf8')).toContain('## linkgate report: 3 links');
  });

  test('--server, --verdict (repeatable) and --since filter the records', async () => {
    const run = await report(
      ['--format', 'json', '--server', 'docs', '--verdict', 'link-only', '--verdict', 'unverifiable'],
      lines,
    );
    const counts = JSON.parse(run.stdout) as ReportCounts;
    expect([counts.links, counts.filteredOut]).toEqual([1, 2]);
    const later = JSON.parse(
      (await report(['--format', 'json', '--since', '2026-01-02'], lines)).stdout,
    ) as ReportCounts;
    expect([later.links, later.filteredOut, later.filters.since]).toEqual([0, 3, '2026-01-02T00:00:00.000Z']);
  });

  test('text fits 100 columns, escapes terminal controls, and is coloured only on a terminal', async () => {
    const plain = await report([], lines);
    expect(plain.code).toBe(0);
    for (const line of plain.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(reportTextColumns);
    expect(plain.stdout).not.toContain('\u001b');
    expect(plain.stdout).toContain('\\u001b[31mred');
    const tty = await report([], lines, true);
    expect(tty.stdout).toContain('\u001b[');
    // the colour codes are around what fits: stripped, every line still fits
    for (const line of tty.stdout.replace(/\u001b\[\d+m/g, '').split('\n'))
      expect(line.length).toBeLessThanOrEqual(reportTextColumns);
    expect((await report([], lines, true, { NO_COLOR: '1' })).stdout).not.toContain('\u001b');
  });

  test('markdown: every value from a record renders as text (markdown-it, then parse5): no element, no broken table', async () => {
    const run = await report(['--format', 'markdown'], lines);
    const html = new MarkdownIt({ html: true, linkify: true }).render(run.stdout);
    const fragment = parseFragment(html);
    const tags = new Set<string>();
    const walk = (node: { nodeName: string; childNodes?: unknown[] }) => {
      tags.add(node.nodeName);
      for (const c of node.childNodes ?? []) walk(c as { nodeName: string; childNodes?: unknown[] });
    };
    walk(fragment);
    expect(tags.has('img')).toBe(false);
    expect(serialize(fragment)).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // the not-delivered table keeps seven cells per row (the host column too) although values hold `|`
    const rows = html.split('<tr>').filter((r) => r.includes('link-only'));
    for (const row of rows.filter((r) => r.includes('example.com'))) expect(row.split('<td').length - 1).toBe(7);
  });
});

describe('parseSince', () => {
  const now = Date.parse('2026-12-03T12:00:00Z');
  test.each([
    ['2026-12-01', '2026-12-01T00:00:00.000Z'],
    ['2026-12-01T09:30', '2026-12-01T09:30:00.000Z'],
    ['2026-12-01T09:30:00+02:00', '2026-12-01T07:30:00.000Z'],
    ['24h', '2026-12-02T12:00:00.000Z'],
    ['30m', '2026-12-03T11:30:00.000Z'],
    ['7d', '2026-11-26T12:00:00.000Z'],
  ])('%s', (text, iso) => {
    expect(new Date(parseSince(text, now) ?? 0).toISOString()).toBe(iso);
  });
  test.each(['yesterday', '12', '2026-13-45', '24 h', ''])('%s is refused', (text) => {
    expect(parseSince(text, now)).toBeNull();
  });
});
