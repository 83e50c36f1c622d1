// A review that stops holding while `linkgate proxy` runs (issue 39 item 6): its `review.expires` passes, or the
// valid-before of the signer it was verified by. The same proxy session, with the same loaded policy, delivers the
// demo's links before that moment and refuses every link and read from the first decision after it
// (policy.unreviewed, naming what ran out), without a restart or a reload. Only Date is faked: timers and the server
// are real.
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { holdPolicy } from '../../src/gate/reload-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { rawProxyHost } from '../helpers/raw-proxy-host.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';
import { demoServer } from './proxy-helpers.ts';

type Json = Record<string, unknown>;
type Item = { type: string; uri?: string; _meta?: Json };
const reviewFolder = reviewFolders();

afterEach(() => {
  vi.useRealTimers();
});

const showLinks = { name: 'show-links', arguments: {} };
const guide = 'demo://linkgate/guide.md';
const items = (answer: Json) => (answer['result'] as { content: Item[] }).content;
const reasonsOf = (item: Item) =>
  JSON.stringify((item._meta?.['io.linkgate/decision'] as Json | undefined)?.['reasons']);

/**
 * One proxy session over a review signed by alice that ends at 2031-03-10 (by `review.expires`, or by alice's
 * `valid-before` when `signerEnds`): links and reads checked a minute before and a second after. Gives the refused
 * read's error message and the link records written after the end.
 */
async function sessionAcrossTheEnd(signerEnds: boolean): Promise<{ readMessage: string; laterRecords: string }> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2031-03-09T23:59:00Z'));
  // with the signer's window as the end, review.expires is years ahead: only the window can end this review
  const f = reviewFolder({ 'alice@example.com': 'ed25519' }, { expires: signerEnds ? '2999-01-01' : '2031-03-10' });
  f.sign('alice@example.com');
  if (signerEnds) {
    const key = f.keys['alice@example.com']?.publicKey ?? '';
    writeFileSync(f.allowedSigners, `alice@example.com namespaces="linkgate-policy",valid-before="20310310Z" ${key}\n`);
  }
  const holder = await holdPolicy(f.policy, { allowedSigners: f.allowedSigners, env: {} });
  // the proxy's link records keep each reason's message
  const records: unknown[] = [];
  const sink = callbackSink((r) => {
    records.push(r);
  });
  // a host over in-memory pipes: send a request, wait for the answer with its id
  const h = rawProxyHost({ gate: holder.gate(), server: 'demo', command: demoServer, sink });
  await h.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  });
  h.notify('notifications/initialized');

  // before the end: the guide is handed on as a link and reads
  const before = items(await h.request('tools/call', showLinks));
  expect(before.some((i) => i.type === 'resource_link' && i.uri === guide)).toBe(true);
  expect(await h.request('resources/read', { uri: guide })).toHaveProperty('result.contents');

  // the end passes; the proxy and its policy stay as they are
  vi.setSystemTime(new Date('2031-03-10T00:00:01Z'));
  const recordedBefore = records.length;
  const after = items(await h.request('tools/call', showLinks));
  expect(after.filter((i) => i.type === 'resource_link')).toEqual([]);
  const notices = after.filter((i) => i._meta?.['io.linkgate/decision'] !== undefined);
  // every link of the result, the ones refused before too, now refused for the review alone
  expect(notices.length).toBe(before.filter((i) => i._meta?.['io.linkgate/decision'] !== undefined).length);
  for (const n of notices) expect(reasonsOf(n)).toContain('policy.unreviewed');
  const read = (await h.request('resources/read', { uri: guide })) as { error?: { message: string } };
  expect(read.error?.message).toContain('policy.unreviewed');

  expect(await h.close()).toBe(0);
  return { readMessage: read.error?.message ?? '', laterRecords: JSON.stringify(records.slice(recordedBefore)) };
}

describe('a review that stops holding while the proxy runs', () => {
  test('links and reads go through before review.expires and are refused from that day on, in one session', async () => {
    const { readMessage, laterRecords } = await sessionAcrossTheEnd(false);
    expect(readMessage).toContain('expired');
    expect(laterRecords).toContain('policy.unreviewed');
  });

  test('links and reads go through before the signer’s valid-before and are refused after it, in one session', async () => {
    const { laterRecords } = await sessionAcrossTheEnd(true);
    // what ran out is named: the signer's valid-before, not review.expires
    expect(laterRecords).toContain('policy.unreviewed');
    expect(laterRecords).toMatch(
      /the signer `alice@example\.com` \(ED25519 key SHA256:\S+\) is past its valid-before 2031-03-10T00:00:00Z/,
    );
    expect(laterRecords).not.toContain('review.expires');
  });
});
