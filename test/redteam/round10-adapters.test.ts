// Red team (issue 39, hidden-style round 10), the in-process adapters (src/frameworks) where rounds 8 and 9 did not
// look: a records sink that never settles when the run ends (`close()` of the OpenAI Agents server, `flush()` of the
// Claude Agent SDK and Copilot SDK hooks: the caller awaits them before closing its sink, so a hang there hangs the
// agent's shutdown and the discovery records are lost unreported); a gate whose read judgement never settles under each
// framework's read tool (AI SDK, LangChain, Mastra: the model must get an answer); the Claude Agent SDK handing its
// hook an MCP tool's result as the MCP object (`{content: […]}`, an in-process SDK server) rather than Claude Code's
// flattened array; and the Copilot SDK's `textResultForLlm` (what the model reads) holding what `contents` (what the
// hook judges) does not. Real SDK clients over the real answering stdio server; the hooks called as their SDKs call
// them. The policy's read deadline is cut to 1.5 s so a deadline that exists is met quickly.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, test } from 'vitest';
import { aiSdkReadLinkTool } from '../../src/frameworks/ai-sdk-read-link.ts';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { langchainReadLinkTool } from '../../src/frameworks/langchain-read-link.ts';
import { mastraReadLinkTool } from '../../src/frameworks/mastra-tools.ts';
import { gatedAgentsServer } from '../../src/frameworks/openai-agents-server.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { answeringServer } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata, onClose, scratch, scriptedTransport } from './scripted-host.ts';
import { caseKeys, quickPolicy, signal, stuckSink } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// Mended: copilot text beside contents (src/frameworks/copilot-sdk-hooks.ts judged `contents` only and passed
// `textResultForLlm` unjudged when nothing in them was replaced; a text holding more than the items' is now judged as
// one more item), redteam10.
const open = new Set<string>([]);
const it = caseKeys(open);

const within = { timeout: 40_000 };
/** Settles with 'settled' or 'rejected'; the test's own timeout ends a hang. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'settled',
    () => 'rejected',
  );

describe('red team, adapters (round 10): a records sink that never settles at the end of the run', () => {
  it('agents close stuck sink')('OpenAI Agents server: close() settles after a call', within, async () => {
    const sink = stuckSink();
    const server = gatedAgentsServer({
      name: 'a',
      client: new Client({ name: 'r10', version: '1' }),
      transport: scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer),
      gate: createGate(await quickPolicy()),
      sink,
    });
    await server.connect();
    // the tool result's discovery record goes to the sink before the result does (73dcd14): a sink that never answers
    // withholds it at the sink's deadline (onRecordError: withhold), and close() still settles
    await expect(
      server.callTool('result', { result: { content: [link('https://example.com/a.txt', 'a')] } }),
    ).rejects.toThrow(/could not write the record/);
    expect(['settled', 'rejected']).toContain(await outcome(server.close()));
  });

  it('claude agent flush stuck sink')('Claude Agent SDK hooks: flush() settles', within, async () => {
    const sink = stuckSink();
    const hooks = claudeAgentHooks({ policy: await quickPolicy(), records: sink });
    const post = hooks.PostToolUse[0]?.hooks[0] as NonNullable<(typeof hooks.PostToolUse)[0]['hooks'][0]>;
    await post(toolReturned('fixture', 'links', [link('https://example.com/a.txt', 'a')]), 'toolu_1', signal);
    expect(['settled', 'rejected']).toContain(await outcome(hooks.flush()));
  });

  it('copilot flush stuck sink')('Copilot SDK hooks: flush() settles', within, async () => {
    const sink = stuckSink();
    const hooks = copilotSdkHooks({
      policy: await quickPolicy(),
      records: sink,
      stateDir: path.join(await scratch(), 'state'),
    });
    const invocation = { sessionId: 's1' };
    await hooks.onPreMcpToolCall({ sessionId: 's1', serverName: 'docs', toolName: 'links', arguments: {} }, invocation);
    await hooks.onPostToolUse(
      {
        sessionId: 's1',
        timestamp: new Date(),
        workingDirectory: '/tmp',
        toolName: 'docs-links',
        toolArgs: {},
        toolResult: {
          textResultForLlm: 'a',
          resultType: 'success',
          contents: [link('https://example.com/a.txt', 'a')],
        },
      },
      invocation,
    );
    expect(['settled', 'rejected']).toContain(await outcome(hooks.flush()));
  });
});

/** A gate whose read judgements never settle (a custom gate, a stuck resolver). */
const stuckReads = (gate: Gate): Gate => ({
  ...gate,
  decideRead: () => new Promise(() => {}),
  decideReadDetailed: () => new Promise(() => {}),
});

// [framework, its read tool's call for `uri`]
const readTools: [string, (links: ReturnType<typeof gatedLinks>) => (uri: string) => Promise<unknown>][] = [
  ['ai sdk', (links) => (uri) => aiSdkReadLinkTool(links).execute({ uri })],
  ['langchain', (links) => (uri) => langchainReadLinkTool(links).func({ uri })],
  ['mastra', (links) => (uri) => mastraReadLinkTool(links).execute({ uri })],
];

describe('red team, adapters (round 10): a gate whose read judgement never settles', () => {
  for (const [framework, tool] of readTools)
    it(`${framework} stuck gate read`)(
      `${framework} read tool: the model gets an answer, not the body`,
      within,
      async () => {
        const links = gatedLinks({ gate: stuckReads(createGate(await quickPolicy())), sink: callbackSink(() => {}) });
        const client = new Client({ name: 'r10', version: '1' });
        await client.connect(
          links.transport('a', scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer)),
        );
        onClose(() => client.close());
        await client.callTool({ name: 'result', arguments: { result: { content: [link('rt://docs/a.txt', 'a')] } } });
        const answer = JSON.stringify(await tool(links)('rt://docs/a.txt'));
        expect(answer).toContain('linkgate');
        expect(answer).not.toContain('BODY rt://docs/a.txt');
      },
    );

  test('control: the same read with the gate as made: the body', within, async () => {
    const links = gatedLinks({ gate: createGate(await quickPolicy()), sink: callbackSink(() => {}) });
    const client = new Client({ name: 'r10', version: '1' });
    await client.connect(
      links.transport('a', scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer)),
    );
    onClose(() => client.close());
    await client.callTool({ name: 'result', arguments: { result: { content: [link('rt://docs/a.txt', 'a')] } } });
    expect(await links.read('rt://docs/a.txt')).toContain('BODY rt://docs/a.txt');
  });
});

describe('red team, adapters (round 10): result shapes the hooks are handed', () => {
  const post = async (response: unknown) => {
    const hooks = claudeAgentHooks({ policy: await quickPolicy(), records: callbackSink(() => {}) });
    const callback = hooks.PostToolUse[0]?.hooks[0] as NonNullable<(typeof hooks.PostToolUse)[0]['hooks'][0]>;
    const event = { ...toolReturned('fixture', 'links', []), tool_response: response };
    return JSON.stringify(await callback(event, 'toolu_1', signal));
  };

  it('claude agent mcp object')(
    'Claude Agent SDK: a tool_response that is the MCP result object: the refused link does not reach the model',
    within,
    async () => {
      const answer = await post({ content: [link(metadata, 'creds')] });
      expect(answer).toContain('linkgate');
      expect(answer).not.toContain(hostPath);
    },
  );

  it('claude agent structured')(
    "Claude Agent SDK: the MCP result object's structuredContent holding the refused link: withheld",
    within,
    async () => {
      const answer = await post({
        content: [{ type: 'text', text: 'ok' }],
        structuredContent: { next: link(metadata, 'x') },
      });
      expect(answer).toContain('linkgate');
      expect(answer).not.toContain(hostPath);
    },
  );

  it('copilot text beside contents')(
    "Copilot SDK: textResultForLlm (what the model reads) names the refused link's address, contents do not",
    within,
    async () => {
      const hooks = copilotSdkHooks({
        policy: await quickPolicy(),
        records: callbackSink(() => {}),
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
          textResultForLlm: JSON.stringify({ next: { type: 'resource_link', uri: metadata, name: 'x' } }),
          resultType: 'success',
          contents: [{ type: 'text', text: 'ok' }],
        },
      };
      const answer = await hooks.onPostToolUse(original, invocation);
      const handed = answer === undefined ? original.toolResult : answer.modifiedResult;
      expect(JSON.stringify(handed.textResultForLlm)).not.toContain(hostPath);
    },
  );

  test('control: Copilot SDK, text and contents alike and ordinary: passed as they are', within, async () => {
    const hooks = copilotSdkHooks({
      policy: await quickPolicy(),
      records: callbackSink(() => {}),
      stateDir: path.join(await scratch(), 'state'),
    });
    const invocation = { sessionId: 's1' };
    await hooks.onPreMcpToolCall({ sessionId: 's1', serverName: 'docs', toolName: 'links', arguments: {} }, invocation);
    const answer = await hooks.onPostToolUse(
      {
        sessionId: 's1',
        timestamp: new Date(),
        workingDirectory: '/tmp',
        toolName: 'docs-links',
        toolArgs: {},
        toolResult: { textResultForLlm: 'ok', resultType: 'success', contents: [{ type: 'text', text: 'ok' }] },
      },
      invocation,
    );
    expect(answer?.modifiedResult.textResultForLlm ?? 'ok').toBe('ok');
  });
});
