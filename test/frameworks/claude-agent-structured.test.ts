// The real Claude Agent SDK with tools that answer with `structuredContent`: the SDK hands the model the result's
// `structuredContent` (as JSON text) in place of its content items. An ordinary result of that shape, with no link or
// with a link the policy allows, reaches the model under `claudeAgentHooks` (over-blocking is a defect too); a link
// refused inside `structuredContent` never does. Offline, against the scripted Messages API.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { claudeCodeEnv } from '../real-host/claude-code.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { type ScriptStep, startModelApi, toolResultsOf } from '../real-host/model-api.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { allowedAddress, refusedAddress, structuredMarkers } from './structured-answers.ts';

const suite = frameworkSuite('the claude agent sdk', realFrameworks.claudeAgentSdk);
const serverFile = path.join(import.meta.dirname, 'structured-server.ts');

interface AgentSdk {
  query(args: { prompt: string; options: Record<string, unknown> }): AsyncIterable<Record<string, unknown>>;
}

async function runAgent(sdkDir: string, dir: string, hooks: unknown, script: readonly ScriptStep[]) {
  const sdk = await importFrom<AgentSdk>(sdkDir, '@anthropic-ai/claude-agent-sdk');
  const [home, work, tmp] = ['home', 'work', 'tmp'].map((d) => path.join(dir, d)) as [string, string, string];
  await Promise.all([home, work, tmp].map((d) => mkdir(d, { recursive: true })));
  const model = await startModelApi(script);
  const [command, ...args] = tsServerCommand(serverFile);
  try {
    let result: Record<string, unknown> | undefined;
    for await (const message of sdk.query({
      prompt: 'call every tool of the structured server',
      options: {
        cwd: work,
        env: claudeCodeEnv(model.url, home, tmp),
        mcpServers: { structured: { type: 'stdio', command, args } },
        allowedTools: ['mcp__structured__plain', 'mcp__structured__allowed', 'mcp__structured__refused'],
        settingSources: [],
        ...(hooks === undefined ? {} : { hooks }),
      },
    }))
      if (message['type'] === 'result') result = message;
    return { result, toolResults: toolResultsOf(model.requests) };
  } finally {
    await model.close();
  }
}

const script: ScriptStep[] = [
  { toolUses: [{ id: 'toolu_plain', name: 'mcp__structured__plain', input: {} }] },
  { toolUses: [{ id: 'toolu_allowed', name: 'mcp__structured__allowed', input: {} }] },
  { toolUses: [{ id: 'toolu_refused', name: 'mcp__structured__refused', input: {} }] },
  { text: 'all called' },
];

describe('claudeAgentHooks inside the real Claude Agent SDK, results with structuredContent', () => {
  test('control: without the hooks, the model gets each structuredContent, the refused address too', {
    timeout: 240_000,
  }, async (ctx) => {
    const sdkDir = suite.require(ctx);
    const run = await runAgent(sdkDir, await suite.scratch('linkgate-agent-structured-bare-'), undefined, script);
    expect(run.result?.['subtype'], JSON.stringify(run.result)).toBe('success');
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
    expect(text('toolu_plain')).toContain(structuredMarkers.plain);
    expect(text('toolu_allowed')).toContain(allowedAddress);
    expect(text('toolu_refused')).toContain(refusedAddress);
  });

  test('ordinary results reach the model; a link refused inside structuredContent does not', {
    timeout: 240_000,
  }, async (ctx) => {
    const sdkDir = suite.require(ctx);
    const records: LinkRecord[] = [];
    const hooks = claudeAgentHooks({
      policy: await loadPolicy('policies/default.yaml'),
      records: callbackSink((r) => void records.push(r)),
    });
    // what the SDK hands the post hook, by tool use
    const handed = new Map<unknown, unknown>();
    const matcher = hooks.PostToolUse[0];
    const post = matcher?.hooks[0];
    if (matcher === undefined || post === undefined) throw new Error('no PostToolUse hook');
    matcher.hooks[0] = (input, id, options) => {
      handed.set(id, (input as Record<string, unknown>)['tool_response']);
      return post(input, id, options);
    };
    const run = await runAgent(sdkDir, await suite.scratch('linkgate-agent-structured-'), hooks, script);
    await hooks.flush();
    // the SDK's shape: a result with no link is handed as its structuredContent, a JSON string
    expect(typeof handed.get('toolu_plain')).toBe('string');
    expect(typeof handed.get('toolu_refused')).toBe('string');
    expect(run.result?.['subtype'], JSON.stringify(run.result)).toBe('success');
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
    expect(text('toolu_plain')).toContain(structuredMarkers.plain);
    expect(text('toolu_allowed')).toContain(structuredMarkers.allowed);
    expect(text('toolu_allowed')).toContain(allowedAddress);
    expect(text('toolu_refused')).not.toContain(refusedAddress);
    expect(text('toolu_refused')).toContain('linkgate refused the link');
    // the rest of that result reaches the model beside the notice
    expect(text('toolu_refused')).toContain(structuredMarkers.refused);
    expect(records.filter((r) => r.uri === allowedAddress).length).toBeGreaterThan(0);
  });
});
