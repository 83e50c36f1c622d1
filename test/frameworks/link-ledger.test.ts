// The ledger that gives the in-process hooks one record per link: discovery records wait for the link's later
// record or `flush`, at most `maxLedgerLinks` of them over all sessions.
import { describe, expect, test } from 'vitest';
import { LinkLedger, maxLedgerLinks } from '../../src/frameworks/link-ledger.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';

// the members the ledger reads; the rest of a record passes through untouched
const record = (session: string, uri: string, requested: string | null) =>
  ({
    uri,
    verdict: requested === null ? 'link-only' : 'body-obtained',
    host: { name: 'claude-agent-sdk', session, toolUseIds: { discovered: 'toolu_links', requested } },
  }) as unknown as LinkRecord;

function ledger() {
  const written: (LinkRecord & { kind?: string })[] = [];
  const l = new LinkLedger(
    callbackSink((r) => {
      written.push(r);
    }),
  );
  return { l, written };
}

describe('LinkLedger', () => {
  test('a read supersedes the discovery record; flush finishes the rest, per session', async () => {
    const { l, written } = ledger();
    await l.discovered({ kind: 'discovered', ...record('a', 'x://1', null) });
    await l.discovered({ kind: 'discovered', ...record('b', 'x://1', null) });
    // a refusal written as the tool result went out is that link's discovery record
    await l.finished(record('a', 'x://2', null));
    await l.finished(record('a', 'x://1', 'toolu_read'));
    await l.flush();
    await l.flush();
    expect(written.map((r) => [r.kind ?? 'link', r.host?.session, r.uri])).toEqual([
      ['discovered', 'a', 'x://1'],
      ['discovered', 'b', 'x://1'],
      ['discovered', 'a', 'x://2'],
      ['link', 'a', 'x://1'],
      ['link', 'b', 'x://1'],
      ['link', 'a', 'x://2'],
    ]);
  });

  test(`at most ${maxLedgerLinks} links wait; the oldest is forgotten, its discovery record stays`, async () => {
    const { l, written } = ledger();
    for (let i = 0; i <= maxLedgerLinks; i += 1)
      await l.discovered({ kind: 'discovered', ...record('s', `x://${i}`, null) });
    written.length = 0;
    await l.flush();
    expect(written).toHaveLength(maxLedgerLinks);
    expect(written.map((r) => r.uri)).not.toContain('x://0');
  });
});
