// Red team (issue 39, hidden-style round 8), order across the parts of one agent session the earlier rounds took one at
// a time: a link refused on one MCP connection of an agent and its address in a later result of another connection of
// the same agent (`gatedLinks`, one per agent, and the Claude Agent SDK hooks, one per query: each says it judges the
// agent's session); a link refused inside a `prompts/get` answer's messages or a server's `sampling/createMessage`
// request (not a tool result), then its address in a later tool result of the same connection. Through the proxy and
// the decorator over the real answering server, `gatedLinks` over real SDK clients, and the hooks as the SDK calls them.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect } from 'vitest';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { waitUntil } from '../helpers/wait-until.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { answeringServer, callWith, fronts, gatedClientFront } from './hidden-fronts.ts';
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
import { caseKeys, prose, signal, told } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`). Mended:
// gatedLinks two connections (each `links.transport(…)` kept only its own refusals; they share one `RefusedAddresses`
// now, the `refused` option of gateTransport).
const open = new Set<string>([]);
const it = caseKeys(open);

const refusedText = 'linkgate refused the link';

describe('red team, order (round 8): one agent, two connections', () => {
  it('gatedLinks two connections')(
    "gatedLinks: a link refused on connection a, its address in connection b's later result",
    async () => {
      const links = gatedLinks({ gate: createGate(await loadPolicy(policyFile)), sink: callbackSink(() => undefined) });
      const clients = await Promise.all(
        ['a', 'b'].map(async (server) => {
          const client = new Client({ name: `r8-${server}`, version: '1' });
          await client.connect(
            links.transport(server, scriptedTransport(path.join(await scratch(), 'log.jsonl'), answeringServer)),
          );
          onClose(() => client.close());
          return client;
        }),
      );
      const [a, b] = clients as [Client, Client];
      const first = await a.callTool({ name: 'result', arguments: { result: { content: [link(metadata, 'creds')] } } });
      expect(JSON.stringify(first)).toContain(refusedText);
      const later = await b
        .callTool({ name: 'result', arguments: { result: { content: [prose(told)] } } })
        .then(JSON.stringify, (e: unknown) => (e instanceof Error ? e.message : 'rejected'));
      expect(later).not.toContain(hostPath);
    },
  );

  it('agent hooks two servers')(
    "Claude Agent SDK hooks: a link refused in server a's result, its address in server b's later result",
    async () => {
      const hooks = claudeAgentHooks({ policy: policyFile, records: callbackSink(() => undefined) });
      const post = hooks.PostToolUse[0]?.hooks[0] as NonNullable<(typeof hooks.PostToolUse)[0]['hooks'][0]>;
      const first = toolReturned('a', 'links', [link(metadata, 'creds')], { toolUseId: 'toolu_1' });
      expect(JSON.stringify(await post(first, 'toolu_1', signal))).toContain(refusedText);
      const content = [prose(told)];
      const answer = await post(toolReturned('b', 'notes', content, { toolUseId: 'toolu_2' }), 'toolu_2', signal);
      const handed = Object.keys(answer).length === 0 ? content : answer;
      expect(JSON.stringify(handed)).not.toContain(hostPath);
    },
  );
});

const promptRefusing = {
  'prompts/get': { result: { messages: [{ role: 'user', content: link(metadata, 'creds') }] } },
};

for (const [front, start] of fronts)
  describe(`red team, order (round 8) through the ${front}: refused outside a tool result`, () => {
    it(`prompt then call ${front}`)(
      "a link refused inside a prompts/get answer's messages, then a tool result naming its address",
      async () => {
        const f = await start();
        await callWith(f, { result: { content: [] }, answers: promptRefusing });
        const prompt = await f.request('prompts/get', { name: 'p' });
        expect(JSON.stringify(prompt)).not.toContain(hostPath);
        const later = await callWith(f, { result: { content: [prose(told)] } });
        expect(JSON.stringify(later)).not.toContain(hostPath);
      },
    );
  });

describe('red team, order (round 8): refused in a server request', () => {
  const sampling = {
    jsonrpc: '2.0',
    id: 'srv-1',
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: link(metadata, 'creds') }], maxTokens: 16 },
  };

  it('sampling then call decorator')(
    "decorator: a link refused inside the server's sampling request, then a tool result naming its address",
    async () => {
      const f = await gatedClientFront(
        answeringServer,
        { RT_REQUEST_LOG: path.join(await scratch(), 'r.jsonl') },
        true,
      );
      await callWith(f, { result: { content: [] }, notify: [sampling] });
      // the request is judged before it is handed on: wait for it (a ping may come back first)
      const got = await waitUntil('the sampling request handed on', async () => {
        const seen = await f.got();
        return seen.includes('sampling/createMessage') ? seen : undefined;
      });
      expect(got).not.toContain(hostPath);
      const later = await callWith(f, { result: { content: [prose(told)] } });
      expect(JSON.stringify(later)).not.toContain(hostPath);
    },
  );

  it('sampling then call proxy')(
    "proxy: a link refused inside the server's sampling request, then a tool result naming its address",
    async () => {
      const f = await fronts[0][1]();
      await callWith(f, { result: { content: [] }, notify: [sampling] });
      const got = await f.got();
      expect(got).toContain('srv-1');
      expect(got).not.toContain(hostPath);
      const later = await callWith(f, { result: { content: [prose(told)] } });
      expect(JSON.stringify(later)).not.toContain(hostPath);
    },
  );
});
