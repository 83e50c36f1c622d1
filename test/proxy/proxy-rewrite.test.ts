import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { lineTransport } from '../../src/proxy/line-transport.ts';
import { proxySession } from '../../src/proxy/proxy-session.ts';
import { gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { memoryPeer, settled } from './memory-peers.ts';
import { shippedPolicy } from './proxy-helpers.ts';
import { useEchoHost } from './raw-host.ts';
import { waitUntil } from '../helpers/wait-until.ts';

type Json = Record<string, unknown>;

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

// the echo server writes whatever line it is told to: the proxy sees exactly these bytes as the server's answer
describe('a judged answer is the server’s bytes with only the gated items changed', () => {
  // the host sends `method`; the echo server answers with `answer(id)` as written
  const echo = useEchoHost('linkgate-rewrite-', 500);
  const exchange = echo.exchange;

  // (a member named twice is no longer forwarded at all: proxy-same-reading.test.ts)
  test('a tool result: big integers, 1e400, -0, spacing, key order and names in any case in data stay as written', async () => {
    const answer = (id: number) =>
      `{ "id" : ${id} ,"jsonrpc":"2.0","result":{"n":12345678901234567890, "x" : 1e400,"z":-0,"Z":-0.0,\t"content":[` +
      `{"type":"resource_link","uri":"file:///etc/passwd","name":"pw","_meta":{"k": 1E2,"K":12345678901234567890}},` +
      `{"type":"text","text":"t"} ]}}`;
    const got = await exchange('tools/call', { name: 'links' }, answer);
    // the denied link is the one item that changes: the flow's text item naming it stands in its bytes' place
    const link =
      '{"type":"resource_link","uri":"file:///etc/passwd","name":"pw","_meta":{"k": 1E2,"K":12345678901234567890}}';
    const replaced = (((JSON.parse(got) as Json)['result'] as Json)['content'] as Json[])[0] as Json;
    expect(String(replaced['text'])).toMatch(
      /^linkgate refused the link `pw` \(scheme `file`\): uri\.scheme-not-allowed \[record `[0-9a-f]{10}`; /,
    );
    expect(got).toBe(answer(echo.lastId).replace(link, JSON.stringify(replaced)));
  });

  test('a partial read: only the withheld item and the decision change', async () => {
    const uri = 'demo://rewrite/mixed';
    const answer = (id: number) =>
      `{"jsonrpc":"2.0","id":${id},"result":{"big":12345678901234567890,"contents":[ ` +
      `{"uri":"${uri}","mimeType":"text/plain","text":"fine"} , {"uri":"${uri}","mimeType":"text/plain","text":"a\\u0000b"} ],"tail":1e400 }}`;
    const got = await exchange('resources/read', { uri }, answer);
    const { result } = JSON.parse(got) as { result: Json };
    expect((result['_meta'] as Json)['io.linkgate/decision']).toMatchObject({ effect: 'partial' });
    const metaJson = JSON.stringify({ 'io.linkgate/decision': (result['_meta'] as Json)['io.linkgate/decision'] });
    expect(got).toBe(
      `{"jsonrpc":"2.0","id":${echo.lastId},"result":{"big":12345678901234567890,"contents":[{"uri":"${uri}","mimeType":"text/plain","text":"fine"}],"tail":1e400 ,"_meta":${metaJson}}}`,
    );
  });

  test('a result nested 20 000 deep is judged and answered, never dropped', async () => {
    const tool = await exchange(
      'tools/call',
      { name: 'deep' },
      (id) =>
        `{"jsonrpc":"2.0","id":${id},"result":{"structuredContent":{"d":${deep(20_000)}},"content":[{"type":"resource_link","uri":"file:///etc/passwd","name":"pw","_meta":{"d":${deep(20_000)}}}]}}`,
    );
    expect(tool).toContain('linkgate refused the link `pw`');
    expect(tool).not.toContain('"type":"resource_link"');
    const read = await exchange(
      'resources/read',
      { uri: 'demo://rewrite/deep' },
      (id) =>
        `{"jsonrpc":"2.0","id":${id},"result":{"_meta":{"d":${deep(20_000)}},"contents":[{"uri":"demo://rewrite/deep","mimeType":"text/plain","text":"ok"},{"uri":"demo://rewrite/deep","mimeType":"text/plain","text":"a\\u0000b"}]}}`,
    );
    expect(read.length).toBeGreaterThan(40_000);
    expect(read).toContain('"effect":"partial"');
  });
});

describe('an answer the proxy cannot write becomes a -32080 error', () => {
  test('a judged answer without its bytes (a remote server’s) too deep to serialize', async () => {
    const toHost = new PassThrough();
    const lines: string[] = [];
    toHost.setEncoding('utf8');
    toHost.on('data', (chunk: string) => lines.push(...chunk.split('\n').filter((l) => l !== '')));
    const fromHost = new PassThrough();
    const host = lineTransport({ input: fromHost, output: toHost, maxLineBytes: 1 << 20, onUnreadable: () => {} });
    const server = memoryPeer();
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    await proxySession(host, server.transport, { gate, server: 'mem' }).start();
    fromHost.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deep"}}\n');
    await server.waitFor((m) => m['id'] === 1);
    let nested: unknown = [];
    for (let i = 0; i < 20_000; i += 1) nested = [nested];
    const link = { type: 'resource_link', uri: 'file:///etc/passwd', name: 'pw' };
    // (a structuredContent that deep is withheld whole by the gate; a member it does not judge stays too deep)
    server.deliver({ jsonrpc: '2.0', id: 1, result: { extra: { nested }, content: [link] } });
    await settled();
    await waitUntil('the answer to the host', () => (lines.length > 0 ? true : undefined));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => JSON.parse(l) as Json)).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: gateErrorCode, message: expect.stringContaining('could not be passed on') },
      },
    ]);
  });
});
