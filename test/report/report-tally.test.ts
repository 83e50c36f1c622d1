import { describe, expect, test } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { reportCountsSchema } from '../../src/report/report-counts.ts';
import { createReportTally, maxBreakdownKeys, type ReportOptions } from '../../src/report/report-tally.ts';
import { deny, obtainedRecord } from '../record/record-fixtures.ts';
import { countRecords, reportedCounts } from './count-records.ts';

const options: ReportOptions = { sinceMs: null, servers: [], verdicts: [], maxListed: 1000 };

function denied(uri: string, server = 'docs', tool = 'find', at = '2026-01-01T00:00:00.000Z'): LinkRecord {
  const r = obtainedRecord();
  return {
    ...r,
    uri,
    verdict: 'link-only',
    next: { boundary: 'policy', hint: 'link denied by `links.schemes` (uri.scheme-not-allowed)' },
    stages: {
      discovered: { ...r.stages.discovered, uri, server, tool, at },
      requested: null,
      received: null,
      delivered: null,
    },
    decisions: { link: deny(), read: null },
  };
}

function failed(uri: string): LinkRecord {
  const r = obtainedRecord();
  return {
    ...r,
    uri,
    verdict: 'unverifiable',
    next: { boundary: 'origin-server', hint: 'no answer within the `10000` ms deadline' },
    stages: { ...r.stages, discovered: { ...r.stages.discovered, uri }, received: null, delivered: null },
    decisions: { link: r.decisions.link, read: deny('read.timeout') },
  };
}

function tallyOf(lines: readonly string[], opts: ReportOptions = options) {
  const tally = createReportTally(opts);
  const skipped = lines.map((l, i) => tally.addLine('records.jsonl', i + 1, l)).filter((s) => s !== null);
  return { counts: tally.finish(['records.jsonl']), skipped, tally };
}

const mixed = (): LinkRecord[] => [
  obtainedRecord(),
  denied('file:///etc/passwd'),
  failed('guide://slow'),
  {
    ...obtainedRecord(),
    stages: {
      ...obtainedRecord().stages,
      discovered: { ...obtainedRecord().stages.discovered, server: 'wiki', tool: null },
    },
  },
  denied('javascript:alert(1)', 'wiki', 'search'),
];

describe('createReportTally', () => {
  test('the counts equal counts made from the whole records, and fit the json schema', () => {
    const records = mixed();
    const { counts, skipped } = tallyOf(records.map((r) => JSON.stringify(r)));
    expect(skipped).toEqual([]);
    expect(reportedCounts(counts)).toEqual(countRecords(records));
    expect(counts.next).toEqual({ policy: 2, 'origin-server': 1 });
    expect(counts.hints['read.timeout']?.checkNext).toContain('readTimeoutMs');
    expect(reportCountsSchema.parse(counts)).toEqual(counts);
  });

  test('bad lines are skipped with their line number and counted; blank lines and the probe summary are passed over', () => {
    const lines = [
      JSON.stringify(obtainedRecord()),
      '{"uri": "x"',
      '',
      JSON.stringify({ ...obtainedRecord(), verdict: 'fine' }),
      JSON.stringify({ kind: 'summary', links: 1 }),
      JSON.stringify({ ...obtainedRecord(), stages: { ...obtainedRecord().stages, discovered: null } }),
      '[]',
      JSON.stringify({ kind: 'embedded', verdict: 'embedded-withheld' }),
      JSON.stringify({ kind: 'other' }),
    ];
    const { counts, skipped } = tallyOf(lines);
    expect(skipped).toEqual([
      { source: 'records.jsonl', line: 2, message: 'not json' },
      { source: 'records.jsonl', line: 4, message: '`verdict` is not one of the four verdicts' },
      { source: 'records.jsonl', line: 6, message: '`stages.discovered` is not an object' },
      { source: 'records.jsonl', line: 7, message: '`line` is not an object' },
      { source: 'records.jsonl', line: 9, message: 'unknown record `kind`' },
    ]);
    expect(counts.skipped).toBe(5);
    expect(counts.skippedLines).toEqual(skipped);
    expect(counts.links).toBe(1);
    expect(counts.lines).toBe(8);
    expect(counts.embedded).toEqual({
      records: 1,
      verdicts: { 'embedded-delivered': 0, 'embedded-partial': 0, 'embedded-withheld': 1 },
    });
  });

  test('--since, --server and --verdict leave records out and say how many', () => {
    const lines = [
      denied('a://1', 'docs', 'find', '2026-01-01T00:00:00.000Z'),
      denied('a://2', 'docs', 'find', '2026-01-02T00:00:00.000Z'),
      denied('a://3', 'wiki', 'find', '2026-01-03T00:00:00.000Z'),
      {
        ...obtainedRecord(),
        stages: {
          ...obtainedRecord().stages,
          discovered: { ...obtainedRecord().stages.discovered, at: '2026-01-04T00:00:00Z' },
        },
      },
    ].map((r) => JSON.stringify(r));
    const since = tallyOf(lines, { ...options, sinceMs: Date.parse('2026-01-02T00:00:00Z') }).counts;
    expect([since.links, since.filteredOut]).toEqual([3, 1]);
    const server = tallyOf(lines, { ...options, servers: ['wiki'] }).counts;
    expect([server.links, server.filteredOut, server.notDelivered.listed.map((l) => l.uri)]).toEqual([1, 3, ['a://3']]);
    const verdict = tallyOf(lines, { ...options, verdicts: ['body-obtained'] }).counts;
    expect([verdict.links, verdict.verdicts['body-obtained'], verdict.filteredOut]).toEqual([1, 1, 3]);
    expect(verdict.filters).toEqual({ since: null, servers: [], verdicts: ['body-obtained'] });
    // a time that does not parse cannot be placed: the line is skipped, not counted in or out
    const bad = tallyOf([JSON.stringify(denied('a://x', 'docs', 'find', 'yesterday'))], { ...options, sinceMs: 0 });
    expect(bad.skipped.map((s) => s.message)).toEqual(['`stages.discovered.at` is not a time']);
  });

  test('the list of links not delivered is bounded; the total still counts every one', () => {
    const lines = Array.from({ length: 2500 }, (_, i) => JSON.stringify(denied(`a://${i}`)));
    const { counts } = tallyOf(lines, { ...options, maxListed: 10 });
    expect(counts.notDelivered.total).toBe(2500);
    expect(counts.notDelivered.listed.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(counts.notDelivered.limit).toBe(10);
  });

  test('a breakdown keeps at most maxBreakdownKeys keys; the rest count under (other)', () => {
    const lines = Array.from({ length: maxBreakdownKeys + 50 }, (_, i) =>
      JSON.stringify(denied(`a://${i}`, 'docs', `tool-${i}`)),
    );
    const { counts } = tallyOf(lines);
    expect(counts.byTool.keys).toHaveLength(maxBreakdownKeys + 1);
    expect(counts.byTool.otherKeys).toBe(50);
    expect(counts.byTool.keys.find((k) => k.key === '(other)')?.links).toBe(50);
    expect(counts.byTool.keys.reduce((a, k) => a + k.links, 0)).toBe(counts.links);
  });

  test('what the tally holds does not grow with the records: 100 and 5,000 records give reports of one size', () => {
    const lines = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        JSON.stringify(i % 2 === 0 ? obtainedRecord() : denied(`a://${i % 7}`, `s${i % 5}`)),
      );
    const small = tallyOf(lines(100), { ...options, maxListed: 20 });
    const large = tallyOf(lines(5000), { ...options, maxListed: 20 });
    expect(large.tally.recordsRead).toBe(5000);
    const size = (c: unknown) => JSON.stringify(c, (_k, v: unknown) => (typeof v === 'number' ? 0 : v)).length;
    expect(size(large.counts)).toBe(size(small.counts));
  });

  test('listed uris are masked again: a records file written by anything else leaks no userinfo or query value', () => {
    const { counts } = tallyOf([JSON.stringify(denied('https://user:secret@example.com/x?token=abc'))]);
    expect(counts.notDelivered.listed[0]?.uri).toBe('https://example.com/x?token=');
  });

  test('the front end is the record host when present, else the client name, else (not recorded)', () => {
    const withClient = obtainedRecord();
    withClient.stages.discovered.client = { name: 'claude-code', version: '2.1' };
    const lines = [
      JSON.stringify({ ...obtainedRecord(), host: 'gemini-cli' }),
      JSON.stringify(withClient),
      JSON.stringify(obtainedRecord()),
    ];
    expect(
      tallyOf(lines)
        .counts.byFrontEnd.keys.map((k) => k.key)
        .sort(),
    ).toEqual(['(not recorded)', 'claude-code', 'gemini-cli']);
  });

  test('observe mode: records and would-deny counted apart', () => {
    const observed = { ...denied('a://o'), mode: 'observe', wouldDeny: true };
    const { counts } = tallyOf([
      JSON.stringify(observed),
      JSON.stringify({ ...obtainedRecord(), mode: 'observe', wouldDeny: false }),
    ]);
    expect(counts.observe).toEqual({ records: 2, wouldDeny: 1 });
    expect(counts.byServer.keys[0]?.wouldDeny).toBe(1);
    expect(counts.notDelivered.listed[0]?.wouldDeny).toBe(true);
  });
});
