// The harness proves itself with no linkgate in between: the real Claude Code binary, offline, calls the fixture
// server's tools, reads links with ReadMcpResourceTool, and the scripted model API sees the bodies.
// LINKGATE_RECORD_OBSERVED=1 rewrites observed/claude-code/*.json from this run; otherwise the run's hook events
// must keep the recorded shape (a new pinned version that changes them fails here first).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  answeringCommand,
  type ClaudeCodeResult,
  claudeCodeHooks,
  installClaudeCode,
  recordedEvents,
  recordingHooks,
  runClaudeCode,
} from './claude-code.ts';
import { fixtureServer, readRequestLog } from './fixture-process.ts';
import { type FixtureResource, fixtureLinks, fixtureResource } from './fixture-resources.ts';
import { realHostSuite } from './host-suite.ts';
import { readObserved, shapeOf, stableSample, writeObserved } from './observed-shape.ts';

const host = realHostSuite('claude code', () => installClaudeCode());
const record = process.env['LINKGATE_RECORD_OBSERVED'] === '1';

const link = (name: string): FixtureResource => fixtureResource(name, fixtureLinks);

describe('claude code against the fixture server, no gate in between', () => {
  test('tool links, resource reads and hook events reach the model and the server as sent', async (ctx) => {
    host.require(ctx);
    const readme = link('readme');
    const logo = link('logo');
    const logs = await host.scratch('linkgate-smoke-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const hookLog = path.join(logs, 'hooks.jsonl');
    const run: ClaudeCodeResult = await runClaudeCode({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings: recordingHooks(hookLog),
      prompt: 'list the links of the fixture server and read them',
      script: [
        { toolUses: [{ id: 'toolu_links', name: 'mcp__fixture__links', input: {} }] },
        {
          text: 'reading the readme',
          toolUses: [
            { id: 'toolu_read_text', name: 'ReadMcpResourceTool', input: { server: 'fixture', uri: readme.uri } },
          ],
        },
        {
          toolUses: [
            { id: 'toolu_read_blob', name: 'ReadMcpResourceTool', input: { server: 'fixture', uri: logo.uri } },
          ],
        },
        { toolUses: [{ id: 'toolu_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { toolUses: [{ id: 'toolu_list', name: 'ListMcpResourcesTool', input: { server: 'fixture' } }] },
        { text: 'all read' },
      ],
      allowedTools: ['mcp__fixture__links', 'mcp__fixture__embedded', 'ReadMcpResourceTool', 'ListMcpResourcesTool'],
      timeoutMs: 120_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);

    // the model saw every link the tool returned, then the readme's body in the request after the read
    const links = JSON.stringify(run.toolResults['toolu_links']?.content);
    for (const l of fixtureLinks) expect(links).toContain(l.uri);
    const [, beforeRead, afterRead] = run.modelRequests.filter((r) => r.agentTurn);
    expect(JSON.stringify(beforeRead?.body)).not.toContain(readme.marker);
    expect(JSON.stringify(run.toolResults['toolu_read_text']?.content)).toContain(readme.marker);
    expect(JSON.stringify(afterRead?.body)).toContain(readme.marker);

    // the binary body was saved by the host, and the model got the path, not the bytes
    const blob = JSON.parse(String(run.toolResults['toolu_read_blob']?.content)) as {
      contents: { uri: string; blobSavedTo?: string }[];
    };
    const saved = blob.contents[0]?.blobSavedTo;
    expect(saved).toBeDefined();
    expect(await readFile(String(saved))).toEqual(logo.bytes);
    expect(JSON.stringify(run.toolResults['toolu_read_blob'])).not.toContain(logo.marker);

    // the server was asked exactly for the two reads the model made
    const reads = (await readRequestLog(requestLog)).filter((r) => r.method === 'resources/read').map((r) => r.uri);
    expect(reads).toEqual([readme.uri, logo.uri]);

    // a recording hook saw a PreToolUse and a PostToolUse for every tool call
    const events = await recordedEvents(hookLog);
    const seen = events.map((e) => `${String(e['hook_event_name'])} ${String(e['tool_use_id'])}`);
    for (const id of ['toolu_links', 'toolu_read_text', 'toolu_read_blob', 'toolu_embedded', 'toolu_list'])
      expect(seen).toEqual(expect.arrayContaining([`PreToolUse ${id}`, `PostToolUse ${id}`]));
    const readPost = events.find(
      (e) => e['hook_event_name'] === 'PostToolUse' && e['tool_use_id'] === 'toolu_read_text',
    );
    expect(readPost?.['tool_input']).toEqual({ server: 'fixture', uri: readme.uri });
    expect(JSON.stringify(readPost?.['tool_response'])).toContain(readme.marker);

    const hookSample = stableSample(events, run.dir);
    if (record) {
      await writeObserved('claude-code', 'hook-events', hookSample);
      await writeObserved('claude-code', 'tool-results', stableSample(run.toolResults, run.dir));
      await writeObserved('claude-code', 'stream-json', stableSample(run.events, run.dir));
    }
    expect(shapeOf(hookSample)).toEqual(shapeOf(await readObserved('claude-code', 'hook-events')));
  }, 180_000);

  test('hook answers: a PreToolUse deny and an exit 2 keep the read from the server, updatedToolOutput replaces the body', async (ctx) => {
    host.require(ctx);
    const metadata = link('metadata');
    const banner = link('banner');
    const photo = link('photo');
    const logs = await host.scratch('linkgate-smoke-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const withheld = 'withheld by the scripted hook';
    const answers = {
      'PreToolUse toolu_read_metadata': {
        stdout: {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'refused by the scripted hook: a metadata address',
          },
        },
      },
      'PostToolUse toolu_read_banner': {
        stdout: {
          hookSpecificOutput: {
            hookEventName: 'PostToolUse',
            updatedToolOutput: { contents: [{ uri: banner.uri, mimeType: 'text/plain', text: withheld }] },
          },
        },
      },
      'PreToolUse toolu_read_photo': { stderr: 'blocked by the scripted hook with exit 2', exitCode: 2 },
    };
    const command = await answeringCommand(path.join(logs, 'answers.json'), answers, path.join(logs, 'hooks.jsonl'));
    const read = (id: string, uri: string) => ({
      toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri } }],
    });
    const run = await runClaudeCode({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings: claudeCodeHooks(command),
      prompt: 'read the links of the fixture server',
      script: [
        { toolUses: [{ id: 'toolu_links', name: 'mcp__fixture__links', input: {} }] },
        read('toolu_read_metadata', metadata.uri),
        read('toolu_read_banner', banner.uri),
        read('toolu_read_photo', photo.uri),
        { text: 'done reading' },
      ],
      allowedTools: ['mcp__fixture__links', 'ReadMcpResourceTool'],
      timeoutMs: 120_000,
    });
    host.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);

    const reads = (await readRequestLog(requestLog)).filter((r) => r.method === 'resources/read').map((r) => r.uri);
    expect(reads).toEqual([banner.uri]);
    const denied = run.toolResults['toolu_read_metadata'];
    expect(denied?.is_error).toBe(true);
    expect(JSON.stringify(denied?.content)).toContain('refused by the scripted hook: a metadata address');
    expect(JSON.stringify(run.toolResults['toolu_read_banner']?.content)).toContain(withheld);
    expect(JSON.stringify(run.modelRequests.map((r) => r.body))).not.toContain(banner.marker);
    const blocked = run.toolResults['toolu_read_photo'];
    expect(blocked?.is_error).toBe(true);
    expect(JSON.stringify(blocked?.content)).toContain('blocked by the scripted hook with exit 2');

    const sample = stableSample(
      Object.fromEntries(
        ['toolu_read_metadata', 'toolu_read_banner', 'toolu_read_photo'].map((id) => [id, run.toolResults[id]]),
      ),
      run.dir,
    );
    if (record) await writeObserved('claude-code', 'hook-answers', { answers, toolResults: sample });
    expect(shapeOf(sample)).toEqual(
      shapeOf(((await readObserved('claude-code', 'hook-answers')) as { toolResults: unknown }).toolResults),
    );
  }, 180_000);
});
