// A listing answered after a link was refused for its address keeps what names no refused address: a description
// naming it becomes the gate's notice and an entry whose uri names it is left out, instead of the whole listing being
// replaced by the gate's error for the rest of the session (issue 39 item 3). Both front ends, over the real stdio
// scripted server (a real SDK client for the decorator).
import { afterEach, expect, test } from 'vitest';
import { call, closeAll, decorated, hostPath, link, metadata, proxied } from '../redteam/scripted-host.ts';

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
