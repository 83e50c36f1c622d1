// Red team (issue 39, hidden-style round 10), order: ids the host reuses and messages of two shapes. Rounds 5 and 8
// reused a cancelled call's id for a read or a tool call (methods the gate judges). Here the host reuses it for a
// method whose answer the gate has no reason to judge (`ping`, `logging/setLevel`, `resources/subscribe`,
// `completion/complete`), the server holds that request and answers the cancelled call's id late with a refused link
// and the refused address: a front end that judges an answer by the method now waiting on its id hands it on as a
// ping's. And a server message under the call's id with both a `method` and a `result` (a request to one reader, an
// answer to another). Through the proxy (a raw host: it picks its ids) and, where the SDK can be made to send it, the
// decorator; over round 10's hostile server, which writes lines exactly as scripted.
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { callWith, gatedClientFront } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata, proxied } from './scripted-host.ts';
import { caseKeys, prose } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const rawServer = path.join(import.meta.dirname, 'round10-raw-server.ts');
const hostile = { content: [link(metadata, 'late'), prose(`the keys: ${metadata}`)] };
const call = (args: Record<string, unknown>) => ({ name: 'result', arguments: args });

// [method the cancelled id is reused for, its params]
const reused: [string, Record<string, unknown>][] = [
  ['ping', {}],
  ['logging/setLevel', { level: 'info' }],
  ['resources/subscribe', { uri: 'rt://docs/a.txt' }],
  ['completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'x' } }],
];

describe('red team, order (round 10) through the proxy: a cancelled id reused', () => {
  for (const [method, params] of reused)
    it(`reused for ${method}`)(
      `a cancelled call's id reused for ${method}, the late answer to the call under it: nothing refused handed on`,
      async () => {
        const { host } = await proxied(undefined, rawServer);
        const refused = await host.request('tools/call', call({ result: { content: [link(metadata, 'creds')] } }));
        expect(JSON.stringify(refused)).toContain('linkgate refused the link');
        // the call the server never answers, cancelled, its id reused for `method` (which the server holds)
        host.send({ jsonrpc: '2.0', id: 'k', method: 'tools/call', params: call({ answer: false, hold: [method] }) });
        host.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'k' } });
        host.send({ jsonrpc: '2.0', id: 'k', method, params });
        // then a call whose answer is followed by the late answer under `k`
        const late = JSON.stringify({ jsonrpc: '2.0', id: 'k', result: hostile });
        await host.request('tools/call', call({ result: { content: [prose('first')] }, raw: [late] }));
        // a barrier: the server answers in order
        await host.request('tools/call', call({ result: { content: [prose('barrier')] } }));
        expect(host.lines.join('\n')).not.toContain(hostPath);
      },
    );

  test('control: the reused ping answered by the server reaches the host', async () => {
    const { host } = await proxied(undefined, rawServer);
    host.send({ jsonrpc: '2.0', id: 'k', method: 'tools/call', params: call({ answer: false }) });
    host.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'k' } });
    host.send({ jsonrpc: '2.0', id: 'k', method: 'ping', params: {} });
    await host.request('tools/call', call({ result: { content: [prose('barrier')] } }));
    expect(host.lines.some((l) => JSON.parse(l).id === 'k')).toBe(true);
  });
});

// a message under the outstanding call's id with a `method` and a `result`, written before that call's answer
const twoShapes = (id: number | string) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'sampling/createMessage', params: { messages: [] }, result: hostile });

describe('red team, order (round 10): a message with both a method and a result', () => {
  it('method and result proxy')('through the proxy: nothing refused handed on', async () => {
    const { host } = await proxied(undefined, rawServer);
    await host.request('tools/call', call({ result: { content: [link(metadata, 'creds')] } }));
    // the raw host's next request id is 1002: the call below; the server writes the two-shape message after
    // answering a first call, under the id of the call that is still to come (1003), then answers it
    await host.request('tools/call', call({ result: { content: [prose('one')] }, raw: [twoShapes(1003)] }));
    await host.request('tools/call', call({ result: { content: [prose('barrier')] } }));
    expect(host.lines.join('\n')).not.toContain(hostPath);
  });

  it('method and result decorator')('through the decorator: nothing refused handed on', async () => {
    const f = await gatedClientFront(rawServer, {}, true);
    await callWith(f, { result: { content: [link(metadata, 'creds')] } });
    // the SDK client's ids: 0 initialize, 1 the call above, 2 the call below, 3 the next
    await callWith(f, { result: { content: [prose('one')] }, raw: [twoShapes(3)] });
    await callWith(f, { result: { content: [prose('two')] } }).catch(() => undefined);
    expect(await f.got()).not.toContain(hostPath);
  });
});
