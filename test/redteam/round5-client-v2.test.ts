// Red team (issue 39, hidden-style round 5) through `gateTransport` under the real 2.x SDK Client
// (`@modelcontextprotocol/client`) before the answering server: the round's notice, surviving, 2026-07-28 and cost
// attacks where the 2.x Client, not the 1.x one, parses what the gate hands on. Everything the transport hands the
// client is tapped; a `ping` round trip is the barrier (the server answers in order).
import path from 'node:path';
import { Client, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import MarkdownIt from 'markdown-it';
import { afterEach, describe, expect } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { answeringServer } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata, onClose, policyFile, scratch } from './scripted-host.ts';
import { caseKeys, told } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

/** A 2.x Client over `gateTransport` before the answering server; what the transport handed it, after a barrier. */
async function v2() {
  const dir = await scratch();
  const [command, ...args] = tsServerCommand(answeringServer) as [string, ...string[]];
  const stdio: Transport = new StdioClientTransport({
    command,
    args,
    env: { PATH: process.env['PATH'] ?? '', RT_REQUEST_LOG: path.join(dir, 'r.jsonl') },
    stderr: 'ignore',
  });
  const gate = createGate(await loadPolicy(policyFile));
  const transport = gateTransport(stdio, { gate, server: 'a', sink: callbackSink(() => {}) });
  const client = new Client({ name: 'rt-v2', version: '2' });
  await client.connect(transport);
  onClose(() => client.close());
  const seen: string[] = [];
  const handOn = transport.onmessage;
  transport.onmessage = (message, extra) => {
    seen.push(JSON.stringify(message));
    handOn?.(message, extra);
  };
  const call = (a: Record<string, unknown>) =>
    client.callTool({ name: 'result', arguments: a }).catch((e: Error) => ({ error: e.message }));
  const got = async () => {
    await client.ping();
    return seen.join('\n');
  };
  return { client, call, got };
}

const markdownIt = new MarkdownIt({ html: true, linkify: true });
const tags = (text: string) =>
  [...new Set([...markdownIt.render(text).matchAll(/<([a-z][\w-]*)/g)].map((m) => m[1]))].sort();
const refused = { result: { content: [link(metadata, 'creds')] } };

describe('red team, round 5, under the 2.x SDK Client', () => {
  for (const name of ['[docs](https://evil.example/)', '<img src=x onerror=alert(1)>', 'www.evil.example/x'])
    it(`md ${name}`)(`a refused link named \`${name}\`: its notice renders as a code span`, async () => {
      const { call } = await v2();
      const answer = (await call({ result: { content: [link(metadata, name)] } })) as {
        content: { text: string }[];
      };
      const notice = answer.content[0]?.text ?? '';
      expect(notice).toMatch(/^linkgate refused the link/);
      expect(tags(notice)).toEqual(['code', 'p']);
    });

  it('v2 not found')("a read's not-found error whose data.uri is the metadata address is not handed on", async () => {
    const { client, call, got } = await v2();
    const notFound = { error: { code: -32602, message: 'resource not found', data: { uri: metadata } } };
    await call({ result: { content: [link('rt://docs/a.txt', 'a')] }, answers: { 'resources/read': notFound } });
    const answer = await client.readResource({ uri: 'rt://docs/a.txt' }).catch((e: Error) => JSON.stringify(e));
    expect(JSON.stringify(answer)).not.toContain(hostPath);
    expect(await got()).not.toContain(hostPath);
  });

  it('v2 prompt')("after the refusal, a prompt's message naming the address is not handed on", async () => {
    const { client, call, got } = await v2();
    await call(refused);
    const prompt = { messages: [{ role: 'user', content: { type: 'text', text: told } }] };
    await call({ answers: { 'prompts/get': { result: prompt } } });
    const answer = await client.getPrompt({ name: 'p' }).catch((e: Error) => e.message);
    expect(JSON.stringify(answer)).not.toContain(hostPath);
    expect(await got()).not.toContain(hostPath);
  });

  it('v2 read body')('after the refusal, the body of a read naming the address is not handed on', async () => {
    const { client, call, got } = await v2();
    await call(refused);
    const body = { contents: [{ uri: 'rt://docs/a.txt', mimeType: 'text/plain', text: told }] };
    await call({
      result: { content: [link('rt://docs/a.txt', 'a')] },
      answers: { 'resources/read': { result: body } },
    });
    const answer = await client.readResource({ uri: 'rt://docs/a.txt' }).catch((e: Error) => e.message);
    expect(JSON.stringify(answer)).not.toContain(hostPath);
    expect(await got()).not.toContain(hostPath);
  });

  it('v2 cost')(
    '512 Ki of U+FDFA beside a refused link: answered, nothing refused, still up',
    { timeout: 60_000 },
    async () => {
      const { client, call } = await v2();
      const answer = await call({
        result: { content: [link(metadata, 'creds'), { type: 'text', text: '\ufdfa'.repeat(1 << 19) }] },
      });
      expect(JSON.stringify(answer)).not.toContain(hostPath);
      expect(await client.ping()).toBeDefined();
    },
  );
});
