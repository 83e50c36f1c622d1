// Red team (issue 39, hidden-style round 9), the in-process adapters (src/frameworks, `gateToolResult`) on paths rounds
// 5–8 did not try: a records sink whose write never settles (a stuck disk, a remote sink that never answers) under
// `gateToolResult`, the frameworks' read tool (`gatedLinks`), the Claude Agent SDK hooks and the Copilot SDK hooks,
// each of which says it answers (never hangs, never rejects) and fails closed; and one agent's two connections, a link
// refused on the first and its address in the body the second reads for the read tool. The policy's read deadline is
// cut to 1.5 s so a deadline that exists is met quickly; a front end with none waits out the test's own timeout (a
// failure). Real SDK clients over the real answering stdio server; the hooks called as their SDKs call them.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, test } from 'vitest';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { answeringServer } from './hidden-fronts.ts';
import {
  closeAll,
  hostPath,
  link,
  metadata,
  onClose,
  policyFile,
  scratch,
  scriptedTransport,
} from './scripted-host.ts';
import { caseKeys, prose, quickPolicy, signal, stuckSink } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// Mended: the Claude Agent SDK and Copilot SDK hooks awaited their records sink with no deadline (the callback never
// answered): `LinkLedger` now ends each write at a deadline (src/frameworks/link-ledger.ts), redteam9.
const open = new Set<string>([]);
const it = caseKeys(open);

const within = { timeout: 30_000 };

describe('red team, adapters (round 9): a records sink that never answers', () => {
  it('gateToolResult stuck sink')('gateToolResult: it resolves, the refused link replaced', within, async () => {
    const gate = createGate(await quickPolicy());
    const client = new Client({ name: 'r9', version: '1' });
    const raw = { content: [link(metadata, 'creds'), prose('done')] };
    const r = await gateToolResult(client, raw, { gate, sink: stuckSink(), server: 'a' });
    expect(JSON.stringify({ content: r.content, embedded: r.embedded })).not.toContain(hostPath);
  });

  it('read tool stuck sink')('gatedLinks: the read tool answers (the body or a notice)', within, async () => {
    const links = gatedLinks({ gate: createGate(await quickPolicy()), sink: stuckSink() });
    const client = new Client({ name: 'r9', version: '1' });
    await client.connect(
      links.transport('a', scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer)),
    );
    onClose(() => client.close());
    await client
      .callTool({ name: 'result', arguments: { result: { content: [link('rt://docs/a.txt', 'a')] } } })
      .catch(() => undefined);
    expect(typeof (await links.read('rt://docs/a.txt'))).toBe('string');
  });

  it('claude agent stuck sink')(
    'Claude Agent SDK hooks: the post callback answers and the refused link does not reach the model',
    within,
    async () => {
      const hooks = claudeAgentHooks({ policy: await quickPolicy(), records: stuckSink() });
      const post = hooks.PostToolUse[0]?.hooks[0] as NonNullable<(typeof hooks.PostToolUse)[0]['hooks'][0]>;
      const answer = await post(toolReturned('fixture', 'links', [link(metadata, 'creds')]), 'toolu_1', signal);
      expect(answer).not.toEqual({});
      expect(JSON.stringify(answer)).not.toContain(hostPath);
    },
  );

  it('copilot stuck sink')(
    'Copilot SDK hooks: the post callback answers and the refused link does not reach the model',
    within,
    async () => {
      const hooks = copilotSdkHooks({
        policy: await quickPolicy(),
        records: stuckSink(),
        stateDir: path.join(await scratch(), 'state'),
      });
      const invocation = { sessionId: 's1' };
      await hooks.onPreMcpToolCall(
        { sessionId: 's1', serverName: 'docs', toolName: 'links', arguments: {} },
        invocation,
      );
      const original = {
        sessionId: 's1',
        timestamp: new Date(),
        workingDirectory: '/tmp',
        toolName: 'docs-links',
        toolArgs: {},
        toolResult: {
          textResultForLlm: `links: ${metadata}`,
          resultType: 'success',
          contents: [link(metadata, 'creds')],
        },
      };
      const answer = await hooks.onPostToolUse(original, invocation);
      const handed = answer === undefined ? original.toolResult : answer.modifiedResult;
      expect(JSON.stringify(handed)).not.toContain(hostPath);
    },
  );
});

describe('red team, adapters (round 9): one agent, two connections, the read tool', () => {
  it('read body names a refusal of the other connection')(
    'a link refused on connection a; the body the read tool reads over connection b names its address: not handed on',
    async () => {
      const links = gatedLinks({ gate: createGate(await loadPolicy(policyFile)), sink: callbackSink(() => undefined) });
      const clients = await Promise.all(
        ['a', 'b'].map(async (server) => {
          const client = new Client({ name: 'r9', version: '1' });
          await client.connect(
            links.transport(server, scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer)),
          );
          onClose(() => client.close());
          return client;
        }),
      );
      const [a, b] = clients as [Client, Client];
      const refused = await a.callTool({
        name: 'result',
        arguments: { result: { content: [link(metadata, 'creds')] } },
      });
      expect(JSON.stringify(refused)).toContain('linkgate refused the link');
      const body = { contents: [{ uri: 'rt://docs/b.txt', mimeType: 'text/plain', text: `the keys: ${metadata}` }] };
      await b.callTool({
        name: 'result',
        arguments: {
          result: { content: [link('rt://docs/b.txt', 'b')] },
          answers: { 'resources/read': { result: body } },
        },
      });
      const text = await links.read('rt://docs/b.txt');
      expect(text).not.toContain(hostPath);
    },
  );

  test('control: the same read over connection b with nothing refused hands the body on', async () => {
    const links = gatedLinks({ gate: createGate(await loadPolicy(policyFile)), sink: callbackSink(() => undefined) });
    const client = new Client({ name: 'r9', version: '1' });
    await client.connect(
      links.transport('b', scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer)),
    );
    onClose(() => client.close());
    const body = { contents: [{ uri: 'rt://docs/b.txt', mimeType: 'text/plain', text: 'the keys: in the vault' }] };
    await client.callTool({
      name: 'result',
      arguments: {
        result: { content: [link('rt://docs/b.txt', 'b')] },
        answers: { 'resources/read': { result: body } },
      },
    });
    expect(await links.read('rt://docs/b.txt')).toContain('the keys: in the vault');
  });
});
