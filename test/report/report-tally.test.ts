import { describe, expect, test } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { reportCountsSchema } from '../../src/report/report-counts.ts';
import { reasonCodeHelp } from '../../src/decision/reason-code-help.ts';
import { maxBreakdownKeys } from '../../src/report/report-mode-tally.ts';
import { createReportTally, type ReportOptions } from '../../src/report/report-tally.ts';
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

// the same record of another link (its own uri): a report counts links, and one link's records once
function distinct<T extends { uri: string }>(r: T, i: number): T {
  return { ...r, uri: `${r.uri}#${i}` };
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
    expect(counts.enforce.next).toEqual({ policy: 2, 'origin-server': 1 });
    expect(counts.enforce.hints['read.timeout']?.checkNext).toContain('readTimeoutMs');
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
    expect([server.links, server.filteredOut, server.enforce.notDelivered.listed.map((l) => l.uri)]).toEqual([
      1,
      3,
      ['a://3'],
    ]);
    const verdict = tallyOf(lines, { ...options, verdicts: ['body-obtained'] }).counts;
    expect([verdict.links, verdict.enforce.verdicts['body-obtained'], verdict.filteredOut]).toEqual([1, 1, 3]);
    expect(verdict.filters).toEqual({ since: null, servers: [], verdicts: ['body-obtained'] });
    // a time that does not parse cannot be placed: the line is skipped, not counted in or out
    const bad = tallyOf([JSON.stringify(denied('a://x', 'docs', 'find', 'yesterday'))], { ...options, sinceMs: 0 });
    expect(bad.skipped.map((s) => s.message)).toEqual(['`stages.discovered.at` is not a time']);
  });

  test('the list of links not delivered is bounded; the total still counts every one', () => {
    const lines = Array.from({ length: 2500 }, (_, i) => JSON.stringify(denied(`a://${i}`)));
    const { counts } = tallyOf(lines, { ...options, maxListed: 10 });
    expect(counts.enforce.notDelivered.total).toBe(2500);
    expect(counts.enforce.notDelivered.listed.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(counts.enforce.notDelivered.limit).toBe(10);
  });

  test('a breakdown keeps at most maxBreakdownKeys keys; the rest count under (other)', () => {
    const lines = Array.from({ length: maxBreakdownKeys + 50 }, (_, i) =>
      JSON.stringify(denied(`a://${i}`, 'docs', `tool-${i}`)),
    );
    const { counts } = tallyOf(lines);
    expect(counts.enforce.byTool.keys).toHaveLength(maxBreakdownKeys + 1);
    expect(counts.enforce.byTool.otherKeys).toBe(50);
    expect(counts.enforce.byTool.keys.find((k) => k.key === '(other)')?.links).toBe(50);
    expect(counts.enforce.byTool.keys.reduce((a, k) => a + k.links, 0)).toBe(counts.links);
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
    expect(counts.enforce.notDelivered.listed[0]?.uri).toBe('https://example.com/x?token=');
  });

  test('one name per host: the hook host, else the client name mapped to it, else (not recorded)', () => {
    const client = (name: string) => {
      const r = obtainedRecord();
      r.stages.discovered.client = { name, version: '1' };
      return r;
    };
    const lines = [
      { ...obtainedRecord(), host: { name: 'claude-code', session: 's', toolUseIds: {} } },
      client('claude-code'),
      { ...obtainedRecord(), host: { name: 'codex', session: 's', toolUseIds: {} } },
      client('codex-mcp-client'),
      { ...obtainedRecord(), host: 'gemini-cli' },
      client('gemini-cli-mcp-client'),
      client('some-host'),
      obtainedRecord(),
    ].map((r, i) => JSON.stringify(distinct(r, i)));
    const keys = (list: { keys: { key: string; links: number }[] }) =>
      Object.fromEntries(list.keys.map((k) => [k.key, k.links]));
    expect(keys(tallyOf(lines).counts.enforce.byHost)).toEqual({
      'claude-code': 2,
      codex: 2,
      'gemini-cli': 2,
      'some-host': 1,
      '(not recorded)': 1,
    });
  });

  test('the front end is the recorded one; older records by their shape (hook host, probe client), else (not recorded)', () => {
    const with_ = (frontEnd: string) => {
      const r = obtainedRecord();
      return { ...r, stages: { ...r.stages, discovered: { ...r.stages.discovered, frontEnd } } };
    };
    const probe = obtainedRecord();
    probe.stages.discovered.client = { name: 'linkgate-probe', version: '1' };
    const lines = [
      with_('proxy'),
      with_('decorator'),
      with_('client-helper'),
      with_('probe'),
      with_('hook'),
      with_('made-up'),
      { ...obtainedRecord(), host: { name: 'codex', session: 's', toolUseIds: {} } },
      probe,
    ].map((r, i) => JSON.stringify(distinct(r, i)));
    const { counts } = tallyOf(lines);
    expect(Object.fromEntries(counts.enforce.byFrontEnd.keys.map((k) => [k.key, k.links]))).toEqual({
      proxy: 1,
      decorator: 1,
      'client-helper': 1,
      probe: 2,
      hook: 2,
      '(not recorded)': 1,
    });
  });

  test('observe mode: counted apart, as enforcing would have ended them; listed and hinted as would-not-be-delivered', () => {
    const r = obtainedRecord();
    // observe mode read and delivered all three; the decisions say what enforcing would have stopped
    const linkDenied = {
      ...r,
      uri: 'a://link',
      mode: 'observe',
      wouldDeny: true,
      decisions: { link: deny(), read: r.decisions.read },
    };
    const readDenied = {
      ...r,
      uri: 'a://read',
      mode: 'observe',
      wouldDeny: true,
      decisions: { link: r.decisions.link, read: deny('content.executable') },
    };
    const partial = {
      ...r,
      uri: 'a://partial',
      mode: 'observe',
      wouldDeny: false,
      decisions: { link: r.decisions.link, read: { ...deny('content.active'), effect: 'partial' } },
    };
    const allowed = { ...r, mode: 'observe', wouldDeny: false };
    const { counts } = tallyOf(
      [linkDenied, readDenied, partial, allowed, obtainedRecord(), denied('b://x')].map((x) => JSON.stringify(x)),
    );
    expect([counts.links, counts.enforce.links, counts.observe.links, counts.observe.wouldDeny]).toEqual([6, 2, 4, 2]);
    expect(counts.observe.verdicts).toEqual({
      'body-obtained': 1,
      'partially-interpreted': 1,
      'link-only': 2,
      unverifiable: 0,
    });
    expect(counts.observe.stages).toEqual({ discovered: 4, requested: 3, received: 3, delivered: 2 });
    expect(counts.enforce.verdicts).toEqual({
      'body-obtained': 1,
      'partially-interpreted': 0,
      'link-only': 1,
      unverifiable: 0,
    });
    const listed = counts.observe.notDelivered.listed;
    expect(listed.map((l) => [l.uri, l.verdict, l.recordedVerdict, l.mode])).toEqual([
      ['a://link', 'link-only', 'body-obtained', 'observe'],
      ['a://read', 'link-only', 'body-obtained', 'observe'],
      ['a://partial', 'partially-interpreted', 'body-obtained', 'observe'],
    ]);
    expect(listed.map((l) => l.next?.hint)).toEqual([
      expect.stringMatching(/^would not be delivered: the link would be denied by /),
      expect.stringMatching(/^would not be delivered: the read would be denied by .*content\.executable/),
      expect.stringMatching(/^would be delivered in part: .*content\.active/),
    ]);
    expect(counts.enforce.notDelivered.listed.map((l) => l.uri)).toEqual(['b://x']);
    // the catalogue's enforce wording says the body was never delivered; in observe mode it was
    expect(reasonCodeHelp['content.executable'].checkNext).toContain('never delivered');
    expect(counts.observe.hints['content.executable']?.checkNext).toContain('would not be delivered');
    expect(counts.observe.hints['content.executable']?.checkNext).not.toContain('never delivered');
    // --verdict filters observe records by the verdict enforcing would have given
    const onlyLinkOnly = tallyOf(
      [linkDenied, allowed].map((x) => JSON.stringify(x)),
      { ...options, verdicts: ['link-only'] },
    );
    expect(onlyLinkOnly.counts.observe.notDelivered.listed.map((l) => l.uri)).toEqual(['a://link']);
  });

  test('a report counts links, not records: a later record of a link supersedes an earlier one (issue 40 item 4)', () => {
    const discovered = (r: LinkRecord) => ({ kind: 'discovered', ...r, verdict: 'link-only', next: null });
    const read = obtainedRecord();
    const refused = denied('file:///etc/passwd');
    const attempt = { ...denied('file:///etc/passwd'), next: { boundary: 'policy', hint: 'the model tried it' } };
    const unread = denied('guide://never-read');
    const lines = [
      discovered(read),
      discovered(unread),
      refused,
      read,
      attempt,
      // listed again after it was read: the read stands
      discovered(read),
      // another server's link of the same uri is another link
      { ...read, stages: { ...read.stages, discovered: { ...read.stages.discovered, server: 'other' } } },
    ].map((r) => JSON.stringify(r));
    const { counts, skipped } = tallyOf(lines);
    expect(skipped).toEqual([]);
    expect([counts.records, counts.superseded, counts.links]).toEqual([7, 3, 4]);
    expect(counts.enforce.verdicts).toEqual({
      'body-obtained': 2,
      'partially-interpreted': 0,
      'link-only': 2,
      unverifiable: 0,
    });
    const listed = counts.enforce.notDelivered.listed;
    expect(listed.map((l) => [l.uri, l.next?.hint ?? null])).toEqual([
      ['guide://never-read', null],
      ['file:///etc/passwd', 'the model tried it'],
    ]);
  });
});
