import { describe, expect, test } from 'vitest';
import { formatRecordTable } from '../../src/record/format-record-table.ts';
import { deny, obtainedRecord } from './record-fixtures.ts';

const denied = () => {
  const r = obtainedRecord();
  r.uri = 'file:///etc/passwd';
  r.stages.discovered.uri = r.uri;
  r.verdict = 'link-only';
  r.next = { boundary: 'policy', hint: 'link denied by `links.schemes` (uri.scheme-not-allowed)' };
  r.stages.requested = null;
  r.stages.received = null;
  r.stages.delivered = null;
  r.decisions = { link: deny(), read: null };
  return r;
};

describe('formatRecordTable', () => {
  test('one row per record with uri, stages, verdict and reason codes; a next list; a summary', () => {
    const text = formatRecordTable([obtainedRecord(), denied()], false);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^#\s+uri\s+declared type\s+link\s+requested\s+received\s+detected type\s+delivered\s+verdict\s+reasons$/,
    );
    expect(lines[1]).toMatch(
      /guide:\/\/manuals\/packing\s+text\/plain\s+allow\s+deadline 10000 ms\s+1 text 12 B\s+text\s+1\/1 12 B\s+body-obtained/,
    );
    expect(lines[2]).toMatch(/file:\/\/\/etc\/passwd .*deny\s+-\s+-\s+-\s+-\s+link-only\s+uri\.scheme-not-allowed$/);
    expect(text).toContain('2  policy: link denied by `links.schemes`');
    expect(text).toContain('2 links: 1 body-obtained, 1 link-only');
    // a legend for the verdicts shown, and what the requested column holds
    expect(text).toMatch(/verdicts:\n {2}body-obtained {2}read, judged and delivered whole\n {2}link-only {6}not read/);
    expect(text).toContain("requested: the read's deadline");
  });

  test.each([
    { colour: false, escapes: false },
    { colour: true, escapes: true },
  ])('colour $colour → escape sequences $escapes', ({ colour, escapes }) => {
    expect(formatRecordTable([obtainedRecord(), denied()], colour).includes('\u001b[')).toBe(escapes);
  });

  test('long uris are cut to the column width', () => {
    const r = obtainedRecord();
    r.uri = `guide://x/${'a'.repeat(200)}`;
    expect(formatRecordTable([r], false).split('\n')[1]).toContain('…');
  });
});

describe('formatRecordTable for direct fetches', () => {
  const fetchedRecord = (truncated: boolean) => {
    const r = obtainedRecord();
    r.stages.requested = {
      at: '2026-01-01T00:00:00.001Z',
      requestId: null,
      server: 'docs',
      deadlineMs: 3000,
      transport: 'https-direct',
      hops: [
        {
          url: 'https://a.example.com/r',
          method: 'GET',
          status: 302,
          effect: 'allow',
          codes: [],
          address: '203.0.113.1',
          credentials: [],
        },
        {
          url: 'https://a.example.com/doc',
          method: 'GET',
          status: 200,
          effect: 'allow',
          codes: [],
          address: '203.0.113.1',
          credentials: [],
        },
      ],
    };
    if (r.stages.received !== null)
      Object.assign(r.stages.received, { finalUrl: 'https://a.example.com/doc', httpStatus: 200, truncated });
    return r;
  };

  test.each([
    { truncated: false, received: /http 200 1 text 12 B\s+text\s/ },
    { truncated: true, received: /http 200 1 text 12 B \(cut\)\s+text\s/ },
  ])('shows the hop count and the http status (cut $truncated)', ({ truncated, received }) => {
    const row = formatRecordTable([fetchedRecord(truncated)], false).split('\n')[1] ?? '';
    expect(row).toMatch(/\sfetch 2 hops\s/);
    expect(row).toMatch(received);
  });

  test('an unchecked response shows its status and the bytes that came', () => {
    const r = fetchedRecord(false);
    r.verdict = 'unverifiable';
    r.stages.delivered = null;
    if (r.stages.received !== null)
      Object.assign(r.stages.received, { resultType: null, itemCount: 0, textItems: 0, items: [], bytes: 1000 });
    expect(formatRecordTable([r], false).split('\n')[1]).toMatch(/\shttp 200 1000 B\s+-\s+-\s+unverifiable/);
  });
});
