// A link refused inside a read's JSON body for a reason other than its address (a declared type or size) is noted in
// the connection's link ledger as a link the server returned, as a tool result's refused link is: a later read of its
// uri is judged as that link, and refused again without asking the server. The proxy and a real SDK client over
// `gateTransport` before the one-write server. Fails on main: the later read was judged as a bare uri, allowed, and
// the server's body handed on.
import { afterEach, describe, expect, test } from 'vitest';
import { uri } from '../fixtures/body-quoting-reads.ts';
import { closeAll } from '../redteam/scripted-host.ts';
import { callWith, orderFronts } from './order-fronts.ts';

afterEach(closeAll);

const target = 'https://files.example/tool.bin';
const listing = { content: [{ type: 'resource_link', uri, name: 'guide', mimeType: 'application/json' }] };
const readOf = (declared: Record<string, unknown>) => {
  const body = JSON.stringify({ see: { type: 'resource_link', uri: target, name: 'tool', ...declared } });
  return { result: { contents: [{ uri, mimeType: 'application/json', text: body }] } };
};
const secret = 'SERVED-BODY-7741';
const targetRead = { result: { contents: [{ uri: target, mimeType: 'text/plain', text: secret }] } };

for (const [front, start] of orderFronts)
  describe(`the ${front}: a link refused in a read's body for what it declares`, () => {
    test.each([
      ['a declared type', { mimeType: 'application/x-msdownload' }, 'type.declared-not-allowed'],
      ['a declared size', { size: 50 * 1024 * 1024 }, 'size.declared-too-large'],
    ])('%s: a later read of its uri is refused as that link', async (_, declared, code) => {
      const f = await start();
      await callWith(f, { result: listing, answers: { 'resources/read': readOf(declared) } });
      const first = JSON.stringify(await f.request('resources/read', { uri }));
      expect(first).toContain('linkgate');
      await callWith(f, { result: { content: [] }, answers: { 'resources/read': targetRead } });
      const later = JSON.stringify(await f.request('resources/read', { uri: target }));
      expect(later).not.toContain(secret);
      expect(later).toContain(code);
    });

    test('control: a body link nothing refused is read', async () => {
      const f = await start();
      await callWith(f, { result: listing, answers: { 'resources/read': readOf({}) } });
      await f.request('resources/read', { uri });
      await callWith(f, { result: { content: [] }, answers: { 'resources/read': targetRead } });
      expect(JSON.stringify(await f.request('resources/read', { uri: target }))).toContain(secret);
    });
  });
