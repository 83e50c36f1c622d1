// A host that reuses a request id while the decorator still judges the answer to the first request of that id (issue
// 39 sdkorder item 4): passing the first answer on ended the wait of the second request too, so the server's answer
// to it was dropped as answering nothing and the host waited forever. Raw JSON-RPC through `gateTransport` (an SDK
// client never reuses an id) over a real stdio server, with a gate whose link decisions wait until the test says.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { closeAll, link, onClose, policyFile } from '../redteam/scripted-host.ts';
import { oneWriteServer } from './order-fronts.ts';

afterEach(closeAll);

type Json = Record<string, unknown>;

describe('a request id reused while its first answer is judged', () => {
  test("the second request's answer still reaches the host", async () => {
    const base = createGate(await loadPolicy(policyFile));
    let decide: () => void = () => {};
    const decided = new Promise<void>((resolve) => (decide = resolve));
    let asked: () => void = () => {};
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const held = async (line: unknown) => {
      if ((line as { stage?: string }).stage === 'link') {
        asked();
        await decided;
      }
      return base.decide(line);
    };
    const gate = { ...base, decide: held, decideLink: held as never };
    const [command, ...args] = tsServerCommand(oneWriteServer) as [string, ...string[]];
    const inner = new StdioClientTransport({
      command,
      args,
      env: { PATH: process.env['PATH'] ?? '' },
      stderr: 'ignore',
    });
    const transport = gateTransport(inner, { gate, server: 'a', sink: callbackSink(() => {}) });
    const got: Json[] = [];
    const errors: string[] = [];
    const waiters: { match: (m: Json) => boolean; resolve: (m: Json) => void }[] = [];
    transport.onmessage = (message) => {
      got.push(message);
      for (const w of waiters.splice(0))
        if (w.match(message)) w.resolve(message);
        else waiters.push(w);
    };
    transport.onerror = (error) => errors.push(error.message);
    const answerOf = (id: unknown) =>
      new Promise<Json>((resolve) => {
        const seen = got.find((m) => m['id'] === id && m['method'] === undefined);
        if (seen !== undefined) return resolve(seen);
        waiters.push({ match: (m) => m['id'] === id && m['method'] === undefined, resolve });
      });
    await transport.start();
    onClose(() => transport.close());
    const send = (m: Json) => transport.send({ jsonrpc: '2.0', ...m } as never);
    await send({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
    });
    await answerOf(0);
    // the server will hold its answer to `prompts/list`
    await send({
      id: 1,
      method: 'tools/call',
      params: { name: 'result', arguments: { answers: { 'prompts/list': { hold: true } } } },
    });
    await answerOf(1);
    // request 7: a tool result whose link decision waits
    await send({
      id: 7,
      method: 'tools/call',
      params: { name: 'result', arguments: { result: { content: [link('rt://docs/a.md')] } } },
    });
    await askedOnce;
    // the host reuses 7 while the answer to the first 7 is judged: the server owes it an answer
    await send({ id: 7, method: 'prompts/list', params: {} });
    decide();
    const first = await answerOf(7);
    expect(JSON.stringify(first)).toContain('rt://docs/a.md');
    got.length = 0;
    // the server answers the second 7 (through another request's answer, written with it)
    const answer = { jsonrpc: '2.0', id: '$held:prompts/list', result: { prompts: [{ name: 'second' }] } };
    await send({ id: 8, method: 'tools/call', params: { name: 'result', arguments: { with: [answer] } } });
    await answerOf(8);
    const second = await Promise.race([answerOf(7), send({ id: 9, method: 'ping' }).then(() => answerOf(9))]);
    expect(JSON.stringify(second)).toContain('"second"');
    expect(errors.filter((e) => e.includes('no request is waiting on'))).toEqual([]);
    // an id the server still owes an answer to is not sent again: the answers could not be told apart
    await send({ id: 20, method: 'prompts/list', params: {} });
    await expect(send({ id: 20, method: 'ping' })).rejects.toThrow('request id `20` is already in flight');
    await expect(send({ id: 20, method: 'resources/read', params: { uri: 'rt://docs/a.md' } })).rejects.toThrow(
      'already in flight',
    );
  });
});
