// Red team (issue 39, hidden-style round 12), the adapters (src/frameworks) as each framework calls them, with round
// 12's shapes: a link one JSON step further in (an embedded JSON resource inside an embedded JSON resource's text)
// through the Claude Agent SDK's in-process hooks and the Copilot SDK's hooks; a link's JSON text as a
// `structuredContent` string through Mastra's tools (which hand on the whole result); and the read tool every
// framework shares (`gatedLinks`) reading a link whose `application/json` body is a tool result holding the refused
// link. Real SDK clients over the real answering stdio server. Controls: the same shapes with an ordinary address.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: nested embedded json claude agent sdk, nested embedded json copilot sdk — adapters (the hook steps open one
// level of embedded JSON: src/hook/hook-embedded.ts, as round12-surviving's `nested embedded json`) — owner: notice39
// key: structured json string mastra, read body json link read tool — adapters (the decorator's gaps, round12-surviving
// F5 and F7, reach the model through the frameworks) — owner: lead, fronts39
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, test } from 'vitest';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { gatedMastraTools } from '../../src/frameworks/mastra-tools.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { answeringServer } from './hidden-fronts.ts';
import { nestedJson, ordinary, resultText } from './round12-cases.ts';
import { caseKeys, signal } from './round-cases.ts';
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

// the JSON keys held since flow39's rule; read body json link since readjson15 (a read's JSON body is structured data)
const open = new Set<string>();
const it = caseKeys(open);

afterEach(closeAll);
const within = { timeout: 60_000 };
const seen = /docs\.example\/guide/;

describe('red team, adapters (round 12): a link one JSON step further in, through the hooks the SDKs call', () => {
  /** What the Claude Agent SDK hands the model after the post hook of a result holding `items`. */
  async function claudeAgent(items: unknown[]) {
    const hooks = claudeAgentHooks({ policy: await loadPolicy(policyFile), records: callbackSink(() => {}) });
    const callback = hooks.PostToolUse[0]?.hooks[0];
    if (callback === undefined) throw new Error('no PostToolUse hook');
    const event = toolReturned('fixture', 'links', items);
    const answer = await callback(event, undefined, signal);
    return JSON.stringify(Object.keys(answer).length === 0 ? event : answer);
  }
  /** What the Copilot SDK hands the model after its post hook of a result holding `contents`. */
  async function copilot(contents: unknown[]) {
    const hooks = copilotSdkHooks({
      policy: await loadPolicy(policyFile),
      records: callbackSink(() => {}),
      stateDir: path.join(await scratch(), 'state'),
    });
    const invocation = { sessionId: 's1' };
    await hooks.onPreMcpToolCall({ sessionId: 's1', serverName: 'docs', toolName: 'links', arguments: {} }, invocation);
    const toolResult = { textResultForLlm: 'ok', resultType: 'success', contents };
    const input = { sessionId: 's1', timestamp: new Date(), workingDirectory: '/tmp', toolName: 'docs-links' };
    const answer = await hooks.onPostToolUse({ ...input, toolArgs: {}, toolResult }, invocation);
    return JSON.stringify(answer === undefined ? toolResult : answer.modifiedResult);
  }
  const sdks: [string, (items: unknown[]) => Promise<string>][] = [
    ['claude agent sdk', claudeAgent],
    ['copilot sdk', copilot],
  ];
  for (const [sdk, run] of sdks) {
    it(`nested embedded json ${sdk}`)(
      `${sdk}: the metadata link two JSON steps in does not reach the model`,
      async () => {
        expect(await run([nestedJson(metadata)])).not.toContain(hostPath);
      },
    );
    test(`control: ${sdk}: an ordinary link two JSON steps in reaches the model`, async () => {
      expect(await run([nestedJson(ordinary)])).toMatch(seen);
    });
  }
});

describe('red team, adapters (round 12): Mastra and the shared read tool over a real SDK client', () => {
  /** A gated SDK client over the answering server, and the agent's links. */
  async function connected() {
    const links = gatedLinks({ gate: createGate(await loadPolicy(policyFile)), sink: callbackSink(() => {}) });
    const client = new Client({ name: 'r12', version: '1' });
    await client.connect(
      links.transport('a', scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer)),
    );
    onClose(() => client.close());
    return { links, client };
  }
  const structured = (uri: string) => ({
    content: [{ type: 'text', text: 'ok' }],
    structuredContent: { payload: JSON.stringify(link(uri, 'x')) },
  });
  async function mastra(result: unknown) {
    const { client } = await connected();
    const tools = await gatedMastraTools('a', client);
    return JSON.stringify(await tools['a_result']?.execute({ result }));
  }
  it('structured json string mastra')(
    "Mastra: a link's JSON text as a structuredContent string: not handed on",
    within,
    async () => {
      expect(await mastra(structured(metadata))).not.toContain(hostPath);
    },
  );
  test('control: Mastra: the same shape with an ordinary address: handed on', within, async () => {
    expect(await mastra(structured(ordinary))).toMatch(seen);
  });

  const doc = 'https://docs.example/r.json';
  async function readTool(uri: string) {
    const { links, client } = await connected();
    const answers = {
      'resources/read': { result: { contents: [{ uri: doc, mimeType: 'application/json', text: resultText(uri) }] } },
    };
    await client.callTool({ name: 'result', arguments: { result: { content: [link(doc, 'r')] }, answers } });
    return links.read(doc);
  }
  it('read body json link read tool')(
    'the read tool: a JSON body that is a tool result holding the metadata link: not handed on',
    within,
    async () => {
      expect(await readTool(metadata)).not.toContain(hostPath);
    },
  );
  test('control: the read tool: the same body with an ordinary link: handed on', within, async () => {
    expect(await readTool(ordinary)).toMatch(seen);
  });
});
