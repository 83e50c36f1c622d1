// Red team (issue 39, fresh session 3), surviving links: a uri the gate refuses reaching the host through a shape the
// earlier red teams did not try: a 2026-07-28 `input_required` answer whose `inputRequests` hold a sampling request (the
// host runs it with its own model), a JSON-RPC batch of requests from the host, and the result shapes around a
// refused link (an error result, a resource template's expansion). The proxy and the decorator, over the real scripted
// stdio server.
import { afterEach, describe, expect, test } from 'vitest';
import { call, closeAll, decorated, hostPath, link, metadata, proxied, reads, settled } from './scripted-host.ts';

afterEach(closeAll);

// an `input_required` answer (MCP 2026-07-28) asking the host to run a sampling request holding `content`
const samplingInput = (content: unknown) => ({
  resultType: 'input_required',
  inputRequests: {
    s1: {
      method: 'sampling/createMessage',
      params: { maxTokens: 10, messages: [{ role: 'user', content }] },
    },
  },
  requestState: 'state-1',
});

const fronts = [
  ['proxy', async (result: unknown) => call((await proxied()).host, { result })],
  [
    'decorator',
    async (result: unknown) => (await decorated()).client.callTool({ name: 'result', arguments: { result } }),
  ],
] as const;

for (const [front, answer] of fronts)
  describe(`red team, surviving links (fresh) through the ${front}`, () => {
    test('an input_required answer whose sampling request holds a refused link hands on the notice, not the link', async () => {
      const got = JSON.stringify(await answer(samplingInput(link(metadata, 'creds'))));
      expect(got).not.toContain(hostPath);
      expect(got).toContain('linkgate refused the link `creds`');
    });

    test('an input_required answer whose sampling request holds a tool_result block with a refused link', async () => {
      const block = { type: 'tool_result', toolUseId: 't1', content: [link(metadata, 'creds')] };
      const got = JSON.stringify(await answer(samplingInput([block])));
      expect(got).not.toContain(hostPath);
    });

    test('a result claiming `resultType: task` while carrying content with a refused link', async () => {
      const got = JSON.stringify(
        await answer({ resultType: 'task', taskId: 'x1', content: [link(metadata, 'creds')] }),
      );
      expect(got).not.toContain(hostPath);
    });

    test('an input_required answer carrying content and structuredContent beside its requests', async () => {
      const result = {
        ...samplingInput({ type: 'text', text: 'hello' }),
        content: [link(metadata, 'creds')],
        structuredContent: { next: metadata },
      };
      const got = JSON.stringify(await answer(result));
      expect(got).not.toContain(hostPath);
    });

    test('an error result (`isError`) holding a refused link is judged like any result', async () => {
      const got = JSON.stringify(await answer({ isError: true, content: [link(metadata, 'creds')] }));
      expect(got).not.toContain(hostPath);
      expect(got).toContain('linkgate refused the link');
    });

    test('a refused link in structuredContent under an array of arrays, beside a safe one', async () => {
      const result = {
        content: [{ type: 'text', text: 'see structured' }],
        structuredContent: { pages: [[{ type: 'resource_link', uri: metadata, name: 'm' }], [{ ok: true }]] },
      };
      const got = JSON.stringify(await answer(result));
      expect(got).not.toContain(hostPath);
      expect(got).toContain('"ok":true');
    });
  });

describe('red team, surviving links (fresh): requests the host batches', () => {
  test('a JSON-RPC batch from the host holding a read of a refused uri never reaches the server', async () => {
    const { host, log } = await proxied();
    host.send([
      { jsonrpc: '2.0', id: 'b1', method: 'ping' },
      { jsonrpc: '2.0', id: 'b2', method: 'resources/read', params: { uri: metadata } },
    ]);
    const all = await settled(host);
    expect(await reads(log)).toEqual([]);
    expect(all).not.toContain(hostPath);
  });

  test('a resources/read whose params hold the uri twice (JSON.parse takes the last) reads what was judged', async () => {
    const { host, log } = await proxied();
    await call(host, { result: { content: [link('rt://docs/a.md')] } });
    host.sendLine(
      `{"jsonrpc":"2.0","id":"d1","method":"resources/read","params":{"uri":"rt://docs/a.md","uri":${JSON.stringify(metadata)}}}`,
    );
    const answer = await host.waitFor((m) => m['id'] === 'd1');
    expect(JSON.stringify(answer)).not.toContain(hostPath);
    expect(await reads(log)).not.toContain(metadata);
  });
});

// A server's notifications passed through unjudged; a host shows log messages and progress messages to its user, and
// some hand them to the model. After a tool result whose link was refused, the same server names the address in one:
// it reached the host. Now a session keeps the addresses of its refused links, and a log or progress message naming one
// (as written or read back) is dropped (`src/sdk/refused-addresses.ts`).
describe('red team, surviving links (fresh): notifications after the refusal', () => {
  for (const [method, params] of [
    ['notifications/message', { level: 'info', logger: 'x', data: `credentials at ${metadata}` }],
    ['notifications/progress', { progressToken: 1, progress: 1, message: `fetching ${metadata}` }],
  ] as const)
    test(`a \`${method}\` naming the refused uri after its tool result`, async () => {
      const { host } = await proxied();
      await call(host, { result: { content: [link(metadata, 'creds')] } });
      await call(host, { result: { content: [] }, before: [{ jsonrpc: '2.0', method, params }] });
      expect(await settled(host)).not.toContain(hostPath);
    });
});
