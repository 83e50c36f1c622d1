// A listing answered after a link was refused for its address keeps what names no refused address: a description
// naming it becomes the gate's notice and an entry whose uri names it is left out, instead of the whole listing being
// replaced by the gate's error for the rest of the session (issue 39 item 3). Both front ends, over the real stdio
// scripted server (a real SDK client for the decorator).
import { afterEach, expect, test } from 'vitest';
import { call, closeAll, decorated, hostPath, link, metadata, proxied } from '../redteam/scripted-host.ts';
import { RefusedAddresses } from '../../src/sdk/refused-addresses.ts';
import { callWith, orderFronts } from './order-fronts.ts';

afterEach(closeAll);

const listing = {
  resources: [
    { uri: 'rt://docs/a.txt', name: 'a', description: `a mirror of ${metadata}` },
    { uri: 'rt://docs/b.txt', name: 'b', description: 'plain notes' },
    { uri: `rt://docs/${metadata.slice(7)}`, name: 'c' },
  ],
};

const expectKept = (resources: { uri: string; name: string; description?: string }[]) => {
  expect(JSON.stringify(resources)).not.toContain(hostPath);
  expect(resources.map((r) => r.name)).toEqual(['a', 'b']);
  expect(resources[0]?.description).toMatch(/^linkgate withheld this text: it names the address of a link/);
  expect(resources[1]?.description).toBe('plain notes');
};

test('through the proxy: the listing is kept, the string naming the address replaced', async () => {
  const { host } = await proxied();
  await call(host, { result: { content: [link(metadata, 'creds')] } });
  await call(host, { listing });
  const got = (await host.request('resources/list', {})) as { result: { resources: never[] } };
  expectKept(got.result.resources);
});

test('through the decorator: the listing is kept, the string naming the address replaced', async () => {
  const { client } = await decorated();
  await client.callTool({ name: 'result', arguments: { result: { content: [link(metadata, 'creds')] } } });
  await client.callTool({ name: 'result', arguments: { listing } });
  expectKept((await client.listResources()).resources as never[]);
});

// a member of the listing answer beside `result` (second reading finding 5a) was copied as it came. Only the proxy
// reads such an answer off a stdio server: the SDK's stdio transport drops it before the decorator sees it, so the
// decorator's search is shown on `listingWithout` itself.
test('through the proxy: a member beside a listing result naming the address is left out', async () => {
  const [, start] = orderFronts[0];
  const f = await start();
  await callWith(f, { result: { content: [link(metadata, 'creds')] } });
  const resources = [{ uri: 'rt://docs/b.txt', name: 'b', description: 'plain notes' }];
  const answer = { result: { resources }, note: `mirrors ${metadata}`, kept: 'plain' };
  await callWith(f, { answers: { 'resources/list': answer } });
  const got = (await f.request('resources/list', {})) as { result: { resources: { name: string }[] } };
  expect(got.result.resources.map((r) => r.name)).toEqual(['b']);
  expect(await f.got()).not.toContain(hostPath);
});

test('listingWithout: the answer keeps its id and members naming nothing; an id naming the address withholds it', () => {
  const refused = new RefusedAddresses();
  refused.keep([metadata.slice(7)]);
  const result = { resources: [{ uri: 'rt://docs/b.txt', name: 'b' }] };
  const answer = { jsonrpc: '2.0', id: 7, result, note: `mirrors ${metadata}`, kept: 'plain' };
  expect(refused.listingWithout(answer, 'resources/list', 'n')).toEqual({
    jsonrpc: '2.0',
    id: 7,
    result,
    kept: 'plain',
  });
  expect(refused.listingWithout({ ...answer, id: metadata }, 'resources/list', 'n')).toBeNull();
});
