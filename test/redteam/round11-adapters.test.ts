// Red team (issue 39, hidden-style round 11), the adapters (src/frameworks) inside the real AI SDK (`ai` 7 with
// `@ai-sdk/mcp` 2, driven by its own MockLanguageModelV4: what the model is sent is the oracle) and as each other
// framework calls them: a refused link only inside a JSON text item of an MCP tool the framework made from the
// server's list (`@ai-sdk/mcp` hands the model the items), or only in `structuredContent` of a Mastra tool (which hands
// on the whole result), a records sink that throws when the read tool's read is recorded (issue 39 item 4: a records
// failure withholds, the same in every front end), and the same throwing sink under the OpenAI Agents server object's
// `readLink` and the Claude Agent SDK's read hook. Real SDK clients over the real answering stdio server. And the real
// Copilot SDK (its runtime offline, a scripted Chat Completions model): the Copilot appends the server's
// `structuredContent` as JSON to the text the model reads, which `copilotSdkHooks` did not judge.
// key: copilot structured — adapters (src/frameworks/copilot-sdk-hooks.ts judged the items and a text that is not
// whole JSON; the appended `structuredContent` passed) — mended: judged as the result's `structuredContent`, the text
// rebuilt from it, redteam11
// key: embedded json link copilot sdk — adapters (the hook steps do not read links in an embedded resource's JSON
// text: src/hook/hook-embedded.ts, as `embedded json link claude-code`) — mended with those by hook39 (f7d943e)
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, test } from 'vitest';
import { aiSdkReadLinkTool } from '../../src/frameworks/ai-sdk-read-link.ts';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { gatedMastraTools } from '../../src/frameworks/mastra-tools.ts';
import { gatedAgentsServer } from '../../src/frameworks/openai-agents-server.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink, type RecordSink } from '../../src/record/record-sink.ts';
import { runCopilotSession } from '../frameworks/copilot-sdk-session.ts';
import { lastToolOutputs, scriptedAiModel, type ScriptedAiModel } from '../frameworks/ai-sdk-scripted-model.ts';
import { frameworkSuite, importFrom } from '../frameworks/framework-package.ts';
import { readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
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
import { caseKeys, signal } from './round-cases.ts';

const open = new Set<string>([]);
const it = caseKeys(open);

afterEach(closeAll);
const suite = frameworkSuite('the ai sdk', realFrameworks.aiSdk);
const copilot = frameworkSuite('the copilot sdk', realFrameworks.copilotSdk);
const within = { timeout: 120_000 };
const doc = 'rt://docs/a.txt';

/** A sink that throws when a record other than a discovery is written (the read's, or the session end's). */
const throwingOnReads = (): RecordSink =>
  callbackSink((record) => {
    if ((record as { kind?: string }).kind !== 'discovered') throw new Error('the records disk is full');
  });
/** The tool results the scripted model was sent (its own tool calls' inputs left out), as one text. */
const sentTo = (model: ScriptedAiModel) => JSON.stringify([...lastToolOutputs(model).values()]);

interface Ai {
  generateText: (options: Record<string, unknown>) => Promise<{ text: string }>;
  isStepCount: (count: number) => unknown;
}
interface AiMcp {
  createMCPClient: (config: { transport: unknown }) => Promise<{
    tools(): Promise<Record<string, unknown>>;
    close(): Promise<void>;
  }>;
}

/**
 * A real `generateText` run: the model calls the answering server's `result` tool with `result`, then the read tool for
 * `doc`; the gated connections' records go to `sink`. The tool results the model was sent.
 */
async function aiSdkRun(ctx: Parameters<typeof suite.require>[0], result: unknown, sink: RecordSink) {
  const dir = suite.require(ctx);
  const ai = await importFrom<Ai>(dir, 'ai');
  const { createMCPClient } = await importFrom<AiMcp>(dir, '@ai-sdk/mcp');
  const links = gatedLinks({ gate: createGate(await loadPolicy(policyFile)), sink });
  const inner = scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer);
  const mcp = await createMCPClient({ transport: links.transport('a', inner) });
  onClose(() => mcp.close());
  const tools = { ...(await mcp.tools()), read_link: aiSdkReadLinkTool(links) };
  const model = await scriptedAiModel(dir, [
    [{ id: 'call_tool', name: 'result', args: { result } }],
    [{ id: 'call_read', name: 'read_link', args: { uri: doc } }],
  ]);
  await ai.generateText({ model, tools, prompt: 'go', stopWhen: ai.isStepCount(5) });
  return sentTo(model);
}

describe('red team, adapters (round 11): inside the real AI SDK', () => {
  // the link only inside a JSON text item (`@ai-sdk/mcp` hands the model the items, not `structuredContent`)
  const inText = (uri: string) => ({
    content: [{ type: 'text', text: JSON.stringify({ next: link(uri, 'x') }) }, link(doc, 'a')],
  });

  test('the refused link in a JSON text item of an MCP tool: the model is not sent it', within, async (ctx) => {
    expect(
      await aiSdkRun(
        ctx,
        inText(metadata),
        callbackSink(() => {}),
      ),
    ).not.toContain(hostPath);
  });
  test('control: an ordinary link in the JSON text item: the model is sent it', within, async (ctx) => {
    expect(
      await aiSdkRun(
        ctx,
        inText('https://docs.example/b'),
        callbackSink(() => {}),
      ),
    ).toContain('docs.example/b');
  });

  it('ai sdk read sink throws')(
    'a sink that throws on the read record: the model gets the notice, not the body',
    within,
    async (ctx) => {
      const sent = await aiSdkRun(ctx, { content: [link(doc, 'a')] }, throwingOnReads());
      expect(sent).toContain('linkgate could not write the record');
      expect(sent).not.toContain(`BODY ${doc}`);
    },
  );
  test('control: the same run with a sink that works: the model gets the body', within, async (ctx) => {
    expect(
      await aiSdkRun(
        ctx,
        { content: [link(doc, 'a')] },
        callbackSink(() => {}),
      ),
    ).toContain(`BODY ${doc}`);
  });
});

describe('red team, adapters (round 11): as the other frameworks call the adapters', () => {
  /** A connected OpenAI Agents server object over the answering server, its records to `sink`. */
  async function agentsServer(sink: RecordSink) {
    const server = gatedAgentsServer({
      name: 'a',
      client: new Client({ name: 'r11', version: '1' }),
      transport: scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer),
      gate: createGate(await loadPolicy(policyFile)),
      sink,
    });
    await server.connect();
    onClose(() => server.close());
    return server;
  }
  test('OpenAI Agents: readLink when the read record throws: the notice, not the body', within, async () => {
    const server = await agentsServer(throwingOnReads());
    await server.callTool('result', { result: { content: [link(doc, 'a')] } });
    const answer = await server.readLink(doc);
    expect(answer).not.toContain(`BODY ${doc}`);
    expect(answer).toContain('linkgate');
  });
  test('control: OpenAI Agents with a sink that works: the link and its body', within, async () => {
    const server = await agentsServer(callbackSink(() => {}));
    expect(JSON.stringify(await server.callTool('result', { result: { content: [link(doc, 'a')] } }))).toContain(doc);
    expect(await server.readLink(doc)).toContain(`BODY ${doc}`);
  });

  /** The Claude Agent SDK's hooks over `sink`: a tool result listing `doc`, the read's pre and post events. */
  async function claudeRead(sink: RecordSink) {
    const hooks = claudeAgentHooks({ policy: await loadPolicy(policyFile), records: sink });
    const call = (input: unknown, event: 'PreToolUse' | 'PostToolUse') => {
      const callback = hooks[event][0]?.hooks[0];
      if (callback === undefined) throw new Error(`no ${event} hook`);
      return callback(input, undefined, signal);
    };
    await call(toolReturned('fixture', 'links', [link(doc, 'a')]), 'PostToolUse');
    await call(readRequested('fixture', doc), 'PreToolUse');
    const body = [{ uri: doc, mimeType: 'text/plain', text: `BODY ${doc}` }];
    return JSON.stringify(await call(readReturned('fixture', doc, body), 'PostToolUse'));
  }
  test('Claude Agent SDK: the read record throws: the body is withheld', within, async () => {
    const answer = await claudeRead(throwingOnReads());
    expect(answer).toContain('linkgate');
    expect(answer).not.toContain(`BODY ${doc}`);
  });
  test('control: Claude Agent SDK with a sink that works: no answer, the body goes on', within, async () => {
    expect(await claudeRead(callbackSink(() => {}))).not.toContain('linkgate');
  });

  /** Mastra's tools over a gated client (records to `sink`): the answer of `result` with `result`. */
  async function mastraCall(sink: RecordSink, result: unknown) {
    const links = gatedLinks({ gate: createGate(await loadPolicy(policyFile)), sink });
    const client = new Client({ name: 'r11', version: '1' });
    await client.connect(
      links.transport('a', scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer)),
    );
    onClose(() => client.close());
    const tools = await gatedMastraTools('a', client);
    return JSON.stringify(await tools['a_result']?.execute({ result }));
  }
  test('Mastra: a refused link only in structuredContent: withheld', within, async () => {
    const answer = await mastraCall(
      callbackSink(() => {}),
      {
        content: [{ type: 'text', text: 'ok' }],
        structuredContent: { next: link(metadata, 'x') },
      },
    );
    expect(answer).toContain('linkgate');
    expect(answer).not.toContain(hostPath);
  });
  test('control: Mastra with a sink that works: the link goes on', within, async () => {
    expect(
      await mastraCall(
        callbackSink(() => {}),
        { content: [link(doc, 'a')] },
      ),
    ).toContain(doc);
  });
});

describe('red team, adapters (round 11): inside the real Copilot SDK (its runtime, offline, a scripted model)', () => {
  /** What the model got for one call of the answering server's `result` tool with `result`, with the hooks or none. */
  async function copilotResult(ctx: Parameters<typeof copilot.require>[0], result: unknown, hooked: boolean) {
    const dir = copilot.require(ctx);
    const [command, ...args] = tsServerCommand(answeringServer) as [string, ...string[]];
    const hooks = copilotSdkHooks({
      policy: policyFile,
      records: callbackSink(() => {}),
      stateDir: path.join(await scratch(), 'state'),
    });
    const script = [{ toolUses: [{ id: 'call_1', name: 'a-result', input: { result } }] }, { text: 'done' }];
    const servers = { a: { type: 'local', command, args, tools: ['*'] } };
    const run = await runCopilotSession(dir, copilot, script, servers, hooked ? (hooks as never) : undefined);
    return run.text('call_1') ?? '';
  }
  const structured = (uri: string) => ({
    content: [{ type: 'text', text: 'ok' }],
    structuredContent: { next: link(uri, 'x') },
  });

  test(
    'control: without the hooks, the Copilot appends structuredContent to what the model reads',
    within,
    async (ctx) => {
      expect(await copilotResult(ctx, structured(metadata), false)).toContain(hostPath);
    },
  );
  it('copilot structured')(
    'the refused link only in structuredContent: the model gets its notice',
    within,
    async (ctx) => {
      const text = await copilotResult(ctx, structured(metadata), true);
      expect(text).toContain('linkgate refused the link');
      expect(text).not.toContain(hostPath);
    },
  );
  test('control: an ordinary link in structuredContent reaches the model with the hooks', within, async (ctx) => {
    expect(await copilotResult(ctx, structured('https://docs.example/b'), true)).toContain('docs.example/b');
  });
  it('embedded json link copilot sdk')(
    "an embedded resource's JSON text holding the refused link: not handed on",
    within,
    async (ctx) => {
      const text = await copilotResult(
        ctx,
        {
          content: [
            {
              type: 'resource',
              resource: {
                uri: 'rt://docs/r.json',
                mimeType: 'application/json',
                text: JSON.stringify({ content: [link(metadata, 'next')] }),
              },
            },
          ],
        },
        true,
      );
      expect(text).not.toContain(hostPath);
    },
  );
});
