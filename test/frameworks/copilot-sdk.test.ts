// The real GitHub Copilot SDK (@github/copilot-sdk, its bundled Copilot runtime) run offline with a BYOK provider
// pointed at the scripted model API (Chat Completions) and the hostile fixture server, with and without
// `copilotSdkHooks` (issue 43 item 3): what the model received is read from the requests it got.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { fixtureServer, readRequestLog } from '../real-host/fixture-process.ts';
import { fixtureNamed, fixtureRenderings } from '../real-host/fixture-resources.ts';
import type { ScriptStep } from '../real-host/model-api.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { runCopilotSession } from './copilot-sdk-session.ts';
import { frameworkSuite } from './framework-package.ts';

const suite = frameworkSuite('the copilot sdk', realFrameworks.copilotSdk);
const policy = path.resolve(import.meta.dirname, '../../policies/default.yaml');

const badNotes = fixtureRenderings.find((r) => r.name === 'bad notes');
const notes = fixtureRenderings.find((r) => r.name === 'my notes');
const credentialed = 'https://reader:s3cret@docs.example.com/guide';
// the model lists the links, takes the embedded documents, then fetches a url with credentials
const script: ScriptStep[] = [
  { toolUses: [{ id: 'call_links', name: 'fixture-links', input: {} }] },
  { toolUses: [{ id: 'call_renderings', name: 'fixture-renderings', input: {} }] },
  { toolUses: [{ id: 'call_fetch', name: 'web_fetch', input: { url: credentialed } }] },
  { text: 'done' },
];

/** One session of the real SDK, offline, before the fixture server: what the model got, and the server's request log. */
async function runSession(dir: string, hooks: Record<string, unknown> | undefined) {
  const requests = path.join(await suite.scratch('linkgate-copilot-sdk-log-'), 'requests.jsonl');
  const mcpServers = { fixture: { type: 'local', ...fixtureServer(requests), tools: ['*'] } };
  const run = await runCopilotSession(dir, suite, script, mcpServers, hooks);
  return { ...run, requests: await readRequestLog(requests) };
}

function recording() {
  const records: LinkRecord[] = [];
  return { records, sink: callbackSink((r) => void records.push(r)) };
}

describe('copilotSdkHooks in the real copilot sdk', () => {
  test('without the hooks the escape-laden body reaches the model; with them it is withheld, the refused link and the credentialed fetch refused', async (ctx) => {
    const dir = suite.require(ctx);
    if (badNotes === undefined || notes === undefined) throw new Error('fixture renderings changed');

    const bare = await runSession(dir, undefined);
    expect(bare.text('call_renderings')).toContain(badNotes.marker);
    expect(bare.text('call_renderings')).toContain('\u001b]52;');

    const { records, sink } = recording();
    const hooks = copilotSdkHooks({ policy, records: sink, stateDir: path.join(await suite.scratch('state-'), 's') });
    // the SDK reads the option's keys as hook names: `flush` is not among them
    expect(Object.keys(hooks)).toEqual(['onPreToolUse', 'onPreMcpToolCall', 'onPostToolUse']);
    const gated = await runSession(dir, hooks as unknown as Record<string, unknown>);
    console.log(`copilot sdk: bare ${bare.elapsedMs} ms, with copilotSdkHooks ${gated.elapsedMs} ms`);
    // the allowed embedded text is delivered; the escapes, the ELF and the audio are withheld with the notice
    expect(gated.text('call_renderings')).toContain(notes.marker);
    expect(gated.text('call_renderings')).toContain('content.unsafe-text');
    expect(gated.everything).not.toContain(badNotes.marker);
    expect(gated.everything).not.toContain('\\u001b]52;');
    // the refused link is named by the notice, never by its uri
    expect(gated.text('call_links')).toContain('linkgate refused the link `metadata`');
    expect(gated.everything).not.toContain(fixtureNamed.metadata.uri);
    // the credentialed fetch was denied before it ran: the model got the hook's reason, not the host's fetch error
    expect(gated.text('call_fetch')).toContain('uri.userinfo');
    expect(gated.text('call_fetch')).not.toContain('s3cret');
    // the server answered the tool calls (the gate judged their results, it did not stop them)
    expect(gated.requests.filter((r) => r.method === 'tools/call')).toHaveLength(2);

    await hooks.flush();
    const finished = records.filter((r) => recordKindOf(r) === 'link');
    expect(finished.every((r) => r.host?.name === 'copilot-sdk')).toBe(true);
    expect(finished.find((r) => r.uri === fixtureNamed.metadata.uri)?.decisions.link.reasons[0]?.code).toBe(
      'uri.non-public-address',
    );
    expect(finished.map((r) => r.uri)).toContain('https://docs.example.com/guide');
  });

  test('a policy that does not load: every call denied before it runs, a result withheld whole; nothing throws', async (ctx) => {
    const dir = suite.require(ctx);
    const { records, sink } = recording();
    const hooks = copilotSdkHooks({ policy: '/no/such/policy.yaml', records: sink });
    const run = await runSession(dir, hooks as unknown as Record<string, unknown>);
    for (const id of ['call_links', 'call_renderings', 'call_fetch'])
      expect(run.text(id)).toContain('linkgate hook failed: cannot read policy');
    // denied before they ran: the server was never asked for a tool call
    expect(run.requests.map((r) => r.method)).not.toContain('tools/call');
    // a result the hook cannot judge (here: the policy) is replaced whole, in the shape the SDK's post hook takes
    const post = await hooks.onPostToolUse(
      {
        sessionId: 's1',
        timestamp: new Date(),
        workingDirectory: '/tmp',
        toolName: 'fixture-renderings',
        toolArgs: {},
        toolResult: { textResultForLlm: badNotes?.text ?? '', resultType: 'success', contents: [] },
      },
      { sessionId: 's1' },
    );
    expect(post).toEqual({
      modifiedResult: expect.objectContaining({
        resultType: 'success',
        textResultForLlm: expect.stringMatching(/^linkgate withheld this tool result: the hook failed: cannot read/),
        binaryResultsForLlm: [],
      }) as unknown,
    });
    expect(await hooks.onPostToolUse('garbage', { sessionId: 's1' })).toMatchObject({
      modifiedResult: { textResultForLlm: expect.stringContaining('the hook failed') as unknown },
    });
    expect(records).toEqual([]);
  });

  test('observe mode changes nothing the model gets and records what enforcing would have refused', async (ctx) => {
    const dir = suite.require(ctx);
    if (badNotes === undefined) throw new Error('fixture renderings changed');
    const { records, sink } = recording();
    const hooks = copilotSdkHooks({
      policy,
      records: sink,
      mode: 'observe',
      stateDir: path.join(await suite.scratch('state-'), 's'),
    });
    const run = await runSession(dir, hooks as unknown as Record<string, unknown>);
    expect(run.text('call_renderings')).toContain(badNotes.marker);
    await hooks.flush();
    expect(records.some((r) => r.uri === fixtureNamed.metadata.uri && r.verdict === 'link-only')).toBe(true);
  });
});

describe('copilotSdkHooks on the shapes the sdk hands them', () => {
  const link = (uri: string) => ({ type: 'resource_link', uri, name: 'metadata', mimeType: 'application/json' });
  const post = (toolName: string, contents: unknown[]) => ({
    sessionId: 's1',
    timestamp: new Date(),
    workingDirectory: '/tmp',
    toolName,
    toolArgs: {},
    toolResult: { textResultForLlm: '1 link', resultType: 'success', contents },
  });

  test('a result is judged as the server the pre-MCP hook named, even when both names hold `-`', async () => {
    const { records, sink } = recording();
    const hooks = copilotSdkHooks({ policy, records: sink, stateDir: path.join(await suite.scratch('state-'), 's') });
    await hooks.onPreMcpToolCall(
      { sessionId: 's1', serverName: 'my-docs', toolName: 'get-links', arguments: {} },
      { sessionId: 's1' },
    );
    const answer = await hooks.onPostToolUse(post('my-docs-get-links', [link(fixtureNamed.metadata.uri)]), {
      sessionId: 's1',
    });
    expect(answer?.modifiedResult.textResultForLlm).toContain('linkgate refused the link `metadata`');
    expect(JSON.stringify(answer)).not.toContain(fixtureNamed.metadata.uri);
    await hooks.flush();
    expect(records.map((r) => [r.uri, r.stages.discovered.server, r.stages.discovered.tool])).toContainEqual([
      fixtureNamed.metadata.uri,
      'my-docs',
      'get-links',
    ]);
  });

  test('a result no pre-MCP hook named is still judged; a tool with no server items is left alone', async () => {
    const { sink } = recording();
    const hooks = copilotSdkHooks({ policy, records: sink, stateDir: path.join(await suite.scratch('state-'), 's') });
    const answer = await hooks.onPostToolUse(post('someone-links', [link(fixtureNamed.metadata.uri)]), {
      sessionId: 's1',
    });
    expect(answer?.modifiedResult.textResultForLlm).toContain('uri.non-public-address');
    const own = { ...post('view', []), toolResult: { textResultForLlm: 'file text', resultType: 'success' } };
    expect(await hooks.onPostToolUse(own, { sessionId: 's1' })).toBeUndefined();
  });

  test('two servers whose names run together into one tool name: the result is withheld, judged as neither', async () => {
    const { sink } = recording();
    const hooks = copilotSdkHooks({ policy, records: sink, stateDir: path.join(await suite.scratch('state-'), 's') });
    const safe = { type: 'text', text: 'plain notes' };
    // one server alone: its result is judged and passed on
    await hooks.onPreMcpToolCall(
      { sessionId: 's1', serverName: 'a-b', toolName: 'c', arguments: {} },
      { sessionId: 's1' },
    );
    expect(await hooks.onPostToolUse(post('a-b-c', [safe]), { sessionId: 's1' })).toBeUndefined();
    // `a` + `b-c` makes the same name: which server answered is unknown, so nothing passes
    await hooks.onPreMcpToolCall(
      { sessionId: 's1', serverName: 'a', toolName: 'b-c', arguments: {} },
      { sessionId: 's1' },
    );
    const answer = await hooks.onPostToolUse(post('a-b-c', [safe]), { sessionId: 's1' });
    expect(answer?.modifiedResult.textResultForLlm).toMatch(/^linkgate withheld this tool result/);
  });

  test('an MCP call the pre-MCP hook named whose result has no `contents` is withheld, never passed unjudged', async () => {
    const { sink } = recording();
    const hooks = copilotSdkHooks({ policy, records: sink, stateDir: path.join(await suite.scratch('state-'), 's') });
    await hooks.onPreMcpToolCall(
      { sessionId: 's1', serverName: 'docs', toolName: 'notes', arguments: {} },
      { sessionId: 's1' },
    );
    // the text the model reads, built by the host from items the hook is not shown
    const bare = {
      ...post('docs-notes', []),
      toolResult: { textResultForLlm: 'notes \u001b]52;c;ZXZpbA==\u0007', resultType: 'success' },
    };
    const answer = await hooks.onPostToolUse(bare, { sessionId: 's1' });
    expect(answer?.modifiedResult.textResultForLlm).toMatch(/^linkgate withheld this tool result/);
    expect(JSON.stringify(answer)).not.toContain(']52;');
  });
});
