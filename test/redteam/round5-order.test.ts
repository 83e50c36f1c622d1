// Red team (issue 39, hidden-style round 5), order and message shape: what a JSON parser and the gate may read
// differently in one answer (a key twice, a key spelled with an escape, `result` and `error` together), ids a host
// reused or a server answered under another spelling (the string "7" for the number 7, which the SDK's Protocol
// matches), a server request under the id of the host's pending call, and a server's batch holding a sampling request.
// Through the proxy (raw bytes from the real scripted stdio server) and, where the SDK parses first, the decorator.
import { afterEach, describe, expect } from 'vitest';
import { call, closeAll, decorated, hostPath, link, metadata, proxied, settled } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const refusedLink = JSON.stringify(link(metadata, 'creds'));
const benign = JSON.stringify({ type: 'text', text: 'nothing here' });

// a tool result's JSON text that JSON.parse reads with the refused link in it (the last of two keys wins, escapes
// are decoded): each as the scripted server writes it after `"result":`
const rawResults: [string, string][] = [
  ['`content` twice, the refused link in the last', `{"content":[${benign}],"content":[${refusedLink}]}`],
  ['`content` spelled with a \\u escape', `{"cont\\u0065nt":[${refusedLink}]}`],
  [
    'the uri with its path written in \\u escapes',
    `{"content":[${refusedLink.replace('/latest/', '/\\u006catest/')}]}`,
  ],
  [
    "the item's `uri` twice, a safe one first",
    `{"content":[{"type":"resource_link","uri":"rt://docs/a.md","name":"a","uri":"${metadata}"}]}`,
  ],
  [
    '`result` twice in the message, the refused link in the last',
    `{"content":[${benign}]},"result":{"content":[${refusedLink}]}`,
  ],
  [
    '`result` and an `error` whose data holds the refused link',
    `{"content":[${benign}]},"error":{"code":-32000,"message":"x","data":{"content":[${refusedLink}]}}`,
  ],
  [
    '`structuredContent` twice, the refused uri in the last',
    `{"content":[${benign}],"structuredContent":{"a":1},"structuredContent":{"next":"${metadata}"}}`,
  ],
];

describe('red team, order (round 5): one answer two readers read apart (proxy)', () => {
  for (const [label, rawResult] of rawResults)
    it(label)(`${label}: the host's parser finds nothing refused`, async () => {
      const { host } = await proxied();
      host.send({
        jsonrpc: '2.0',
        id: 'd1',
        method: 'tools/call',
        params: { name: 'result', arguments: { rawResult } },
      });
      await host.waitFor((m) => m['id'] === 'd1');
      const lines = (await settled(host)).split('\n');
      // every line as the host's JSON parser reads it
      for (const line of lines) expect(JSON.stringify(JSON.parse(line) as unknown)).not.toContain(hostPath);
    });
});

describe('red team, order (round 5): ids (proxy)', () => {
  it('string id')('the number 7 answered as the string "7", holding a refused link, is not handed on', async () => {
    const { host } = await proxied();
    const late = { jsonrpc: '2.0', id: '7', result: { content: [link(metadata, 'creds')] } };
    host.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'result', arguments: { answer: false, after: [late] } },
    });
    expect(await settled(host)).not.toContain(hostPath);
  });

  it('reused read id')('a read id cancelled and reused for a tool call: its tool result is judged', async () => {
    const { host } = await proxied();
    host.send({ jsonrpc: '2.0', id: 'k', method: 'resources/read', params: { uri: 'rt://hold/1' } });
    host.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'k' } });
    host.send({
      jsonrpc: '2.0',
      id: 'k',
      method: 'tools/call',
      params: { name: 'result', arguments: { result: { content: [link(metadata, 'creds')] } } },
    });
    const answer = await host.waitFor((m) => m['id'] === 'k');
    expect(JSON.stringify(answer)).not.toContain(hostPath);
    expect(await settled(host)).not.toContain(hostPath);
  });

  it('server request id')(
    "a server request under the id of the host's pending call, then the call's refused link",
    async () => {
      const { host } = await proxied();
      const request = { jsonrpc: '2.0', id: '$id', method: 'roots/list', params: {} };
      const answer = { jsonrpc: '2.0', id: '$id', result: { content: [link(metadata, 'creds')] } };
      host.send({
        jsonrpc: '2.0',
        id: 'p1',
        method: 'tools/call',
        params: { name: 'result', arguments: { answer: false, after: [request, answer] } },
      });
      expect(await settled(host)).not.toContain(hostPath);
    },
  );

  it('batch sampling')("a server's batch of a sampling request holding a refused link and a log", async () => {
    const { host } = await proxied();
    const batch = [
      {
        jsonrpc: '2.0',
        id: 'sb',
        method: 'sampling/createMessage',
        params: { maxTokens: 5, messages: [{ role: 'user', content: link(metadata, 'creds') }] },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } },
    ];
    await call(host, { result: { content: [] }, before: [batch] });
    expect(await settled(host)).not.toContain(hostPath);
  });
});

describe('red team, order (round 5): ids (decorator, the SDK Protocol matches ids by number)', () => {
  it('decorator string id')(
    'the number answered as its string, holding a refused link, is not handed to the SDK client',
    async () => {
      const { client } = await decorated();
      const got = client.request(
        { method: 'tools/call', params: { name: 'result', arguments: { answer: false, after: [] } } },
        (await import('@modelcontextprotocol/sdk/types.js')).ResultSchema,
      );
      // the SDK numbers its requests from 0: the call above is id 1 after initialize's 0
      const late = { jsonrpc: '2.0', id: '1', result: { content: [link(metadata, 'creds')] } };
      const after = await client.callTool({ name: 'result', arguments: { result: { content: [] }, after: [late] } });
      expect(JSON.stringify(after)).not.toContain(hostPath);
      void got.catch(() => undefined);
      const answered = await Promise.race([got.then((r) => JSON.stringify(r)), client.ping().then(() => 'pending')]);
      expect(answered).not.toContain(hostPath);
    },
  );
});
