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

// A link listed twice in one session (two tool results, or twice in one) is two listings: each ends in its own
// record, as the decorator keeps them (`found-links.ts`); a read supersedes the newest listing only. On main the
// second listing replaced the first, so the first listing never got its last record (issue 39, left open).
describe('LinkLedger: every listing of a link', () => {
  const listing = (toolUse: string, index: number, requested: string | null = null) =>
    ({
      uri: 'x://twice',
      verdict: requested === null ? 'link-only' : 'body-obtained',
      stages: { discovered: { contentIndex: index } },
      host: { name: 'claude-agent-sdk', session: 's', toolUseIds: { discovered: toolUse, requested } },
    }) as unknown as LinkRecord;

  test('two listings, one read: the read supersedes the newer, flush finishes the older', async () => {
    const { l, written } = ledger();
    await l.discovered({ kind: 'discovered', ...listing('toolu_1', 0) });
    await l.discovered({ kind: 'discovered', ...listing('toolu_2', 3) });
    await l.finished(listing('toolu_2', 3, 'toolu_read'));
    written.length = 0;
    await l.flush();
    expect(written.map((r) => [r.kind ?? 'link', r.host?.toolUseIds.discovered])).toEqual([['link', 'toolu_1']]);
  });

  test('two listings never read: each gets its last record', async () => {
    const { l, written } = ledger();
    await l.discovered({ kind: 'discovered', ...listing('toolu_1', 0) });
    await l.discovered({ kind: 'discovered', ...listing('toolu_1', 1) });
    written.length = 0;
    await l.flush();
    expect(
      written.map(
        (r) => (r as unknown as { stages: { discovered: { contentIndex: number } } }).stages.discovered.contentIndex,
      ),
    ).toEqual([0, 1]);
  });

  test('the same listing written twice waits once', async () => {
    const { l, written } = ledger();
    await l.discovered({ kind: 'discovered', ...listing('toolu_1', 0) });
    await l.discovered({ kind: 'discovered', ...listing('toolu_1', 0) });
    written.length = 0;
    await l.flush();
    expect(written).toHaveLength(1);
  });
});

describe('LinkLedger with a sink that never settles', () => {
  // a stuck disk or a remote sink that never answers: each write fails at the deadline (the hooks then answer closed)
  const stuck = {
    write: () => new Promise<void>(() => {}),
    writeEmbedded: () => new Promise<void>(() => {}),
    close: async () => {},
  };
  test('every write rejects at its deadline: discovered, finished, embedded and flush', async () => {
    const l = new LinkLedger(stuck, 50);
    await expect(l.discovered({ kind: 'discovered', ...record('a', 'x://1', null) })).rejects.toThrow(
      /did not answer within 50 ms/,
    );
    await expect(l.finished(record('a', 'x://1', 'toolu_read'))).rejects.toThrow(/did not answer within 50 ms/);
    await expect(l.embedded({} as never)).rejects.toThrow(/did not answer within 50 ms/);
  });
});
