// A review that expires while `linkgate proxy` runs (issue 39 item 6): the same proxy session, with the same loaded
// policy, delivers the demo's links before the expiry day and refuses every link and read from the first decision
// after it (policy.unreviewed), without a restart or a reload. Only Date is faked: timers and the server are real.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { holdPolicy } from '../../src/gate/reload-policy.ts';
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

describe('a review that expires while the proxy runs', () => {
  test('links and reads go through before review.expires and are refused from that day on, in one session', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-09T23:59:00Z'));
    const f = reviewFolder({ 'alice@example.com': 'ed25519' }, { expires: '2031-03-10' });
    f.sign('alice@example.com');
    const holder = await holdPolicy(f.policy, { allowedSigners: f.allowedSigners, env: {} });
    // a host over in-memory pipes: send a request, wait for the answer with its id
    const h = rawProxyHost({ gate: holder.gate(), server: 'demo', command: demoServer });
    await h.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    h.notify('notifications/initialized');

    // the day before: the guide is handed on as a link and reads
    const before = items(await h.request('tools/call', showLinks));
    expect(before.some((i) => i.type === 'resource_link' && i.uri === guide)).toBe(true);
    expect(await h.request('resources/read', { uri: guide })).toHaveProperty('result.contents');

    // the review's last minute passes, the proxy and its policy stay as they are
    vi.setSystemTime(new Date('2031-03-10T00:00:01Z'));
    const after = items(await h.request('tools/call', showLinks));
    expect(after.filter((i) => i.type === 'resource_link')).toEqual([]);
    const notices = after.filter((i) => i._meta?.['io.linkgate/decision'] !== undefined);
    // every link of the result, the ones refused before too, now refused for the review alone
    expect(notices.length).toBe(before.filter((i) => i._meta?.['io.linkgate/decision'] !== undefined).length);
    for (const n of notices) expect(reasonsOf(n)).toContain('policy.unreviewed');
    const read = (await h.request('resources/read', { uri: guide })) as { error?: { message: string } };
    expect(read.error?.message).toContain('policy.unreviewed');
    expect(read.error?.message).toContain('expired');

    expect(await h.close()).toBe(0);
  });
});
