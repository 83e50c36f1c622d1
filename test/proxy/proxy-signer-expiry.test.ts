// A signer's valid-before that passes while `linkgate proxy` runs (issue 39 item 6): the review verified at load by
// a signer whose allowed-signers line carries `valid-before`; the same proxy session, with the same loaded policy,
// delivers the demo's links before that moment and refuses every link and read from the first decision after it
// (policy.unreviewed, naming the signer's valid-before), without a restart or a reload. Only Date is faked.
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

describe('a signer whose valid-before passes while the proxy runs', () => {
  test('links and reads go through before the signer’s valid-before and are refused after it, in one session', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-09T23:59:00Z'));
    // review.expires years ahead: only the signer's window can end this review
    const f = reviewFolder({ 'alice@example.com': 'ed25519' }, { expires: '2999-01-01' });
    f.sign('alice@example.com');
    const key = f.keys['alice@example.com']?.publicKey ?? '';
    writeFileSync(f.allowedSigners, `alice@example.com namespaces="linkgate-policy",valid-before="20310310Z" ${key}\n`);
    const holder = await holdPolicy(f.policy, { allowedSigners: f.allowedSigners, env: {} });
    // the proxy's link records keep each reason's message
    const records: unknown[] = [];
    const sink = callbackSink((r) => {
      records.push(r);
    });
    const h = rawProxyHost({ gate: holder.gate(), server: 'demo', command: demoServer, sink });
    await h.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    h.notify('notifications/initialized');

    // inside the signer's window: the guide is handed on as a link and reads
    const before = items(await h.request('tools/call', showLinks));
    expect(before.some((i) => i.type === 'resource_link' && i.uri === guide)).toBe(true);
    expect(await h.request('resources/read', { uri: guide })).toHaveProperty('result.contents');

    // the signer's valid-before passes; the proxy and its policy stay as they are
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
    // what ran out is named: the signer's valid-before, not review.expires
    const later = JSON.stringify(records.slice(recordedBefore));
    expect(later).toContain('policy.unreviewed');
    expect(later).toMatch(
      /the signer `alice@example\.com` \(ED25519 key SHA256:\S+\) is past its valid-before 2031-03-10T00:00:00Z/,
    );
    expect(later).not.toContain('review.expires');
  });
});
