// The harness with Codex CLI and no linkgate in between: the real binary, offline, calls the fixture server's tools
// and reads links with its read_mcp_resource tool; the scripted Responses API sees the bodies.
// LINKGATE_RECORD_OBSERVED=1 rewrites observed/codex/*.json from this run; otherwise the run's hook events must
// keep the recorded shape.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { answeringCommand, recordedEvents } from './claude-code.ts';
import { codexHooks, codexRecordingHooks, installCodexCli, runCodexCli } from './codex-cli.ts';
import { outputText } from './codex-model-api.ts';
import { fixtureServer, readRequestLog } from './fixture-process.ts';
import { type FixtureResource, fixtureEmbedded, fixtureLinks, fixtureResource } from './fixture-resources.ts';
import { realHostSuite } from './host-suite.ts';
import { readObserved, shapeOf, stableSample, writeObserved } from './observed-shape.ts';

const host = realHostSuite('codex cli', () => installCodexCli());
const record = process.env['LINKGATE_RECORD_OBSERVED'] === '1';

const link = (name: string): FixtureResource => fixtureResource(name, fixtureLinks);

describe('codex cli against the fixture server, no gate in between', () => {
  test('tool links, resource reads and hook events reach the model and the server as sent', async (ctx) => {
    host.require(ctx);
    const readme = link('readme');
    const logo = link('logo');
    const logs = await host.scratch('linkgate-smoke-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const hookLog = path.join(logs, 'hooks.jsonl');
    const read = (id: string, uri: string) => ({
      toolUses: [{ id, name: 'read_mcp_resource', input: { server: 'fixture', uri } }],
    });
    const run = await runCodexCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      hooks: codexRecordingHooks(hookLog),
      prompt: 'list the links of the fixture server and read them',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] },
        read('call_read_text', readme.uri),
        read('call_read_blob', logo.uri),
        { toolUses: [{ id: 'call_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { toolUses: [{ id: 'call_list', name: 'list_mcp_resources', input: { server: 'fixture' } }] },
        { text: 'all read' },
      ],
      timeoutMs: 60_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);

    // the model saw every link the tool returned, then the readme's body and the logo's bytes after their reads
    const links = outputText(run.toolResults['call_links']);
    for (const l of fixtureLinks) expect(links).toContain(l.uri);
    expect(outputText(run.toolResults['call_read_text'])).toContain(readme.marker);
    expect(outputText(run.toolResults['call_read_blob'])).toContain(logo.marker);
    expect(outputText(run.toolResults['call_embedded'])).toContain(fixtureEmbedded[0]?.marker);
    expect(outputText(run.toolResults['call_list'])).toContain(readme.uri);

    // the server was asked exactly for the two reads the model made
    const reads = (await readRequestLog(requestLog)).filter((r) => r.method === 'resources/read').map((r) => r.uri);
    expect(reads).toEqual([readme.uri, logo.uri]);

    // a recording hook saw a PreToolUse and a PostToolUse for every tool call, with Codex's tool names
    const events = await recordedEvents(hookLog);
    const seen = events.map(
      (e) => `${String(e['hook_event_name'])} ${String(e['tool_name'])} ${String(e['tool_use_id'])}`,
    );
    const calls = [
      'mcp__fixture__links call_links',
      'read_mcp_resource call_read_text',
      'read_mcp_resource call_read_blob',
      'mcp__fixture__embedded call_embedded',
      'list_mcp_resources call_list',
    ];
    expect(seen).toEqual(calls.flatMap((c) => [`PreToolUse ${c}`, `PostToolUse ${c}`]));
    const readPost = events.find(
      (e) => e['hook_event_name'] === 'PostToolUse' && e['tool_use_id'] === 'call_read_text',
    );
    expect(readPost?.['tool_input']).toEqual({ server: 'fixture', uri: readme.uri });
    // the read's result reaches the hook as a JSON string, blobs inline
    expect(typeof readPost?.['tool_response']).toBe('string');
    const blobPost = events.find(
      (e) => e['hook_event_name'] === 'PostToolUse' && e['tool_use_id'] === 'call_read_blob',
    );
    expect(JSON.parse(String(blobPost?.['tool_response']))).toMatchObject({
      server: 'fixture',
      uri: logo.uri,
      contents: [{ uri: logo.uri, mimeType: 'image/png', blob: logo.bytes?.toString('base64') }],
    });

    const hookSample = stableSample(events, run.dir);
    if (record) {
      await writeObserved('codex', 'hook-events', hookSample);
      await writeObserved('codex', 'tool-results', stableSample(run.toolResults, run.dir));
      await writeObserved('codex', 'exec-json', stableSample(run.events, run.dir));
    }
    expect(shapeOf(hookSample)).toEqual(shapeOf(await readObserved('codex', 'hook-events')));
  }, 120_000);

  test('hook answers: a PreToolUse deny and an exit 2 keep the read from the server, a PostToolUse block or exit 2 replaces the result', async (ctx) => {
    host.require(ctx);
    const metadata = link('metadata');
    const banner = link('banner');
    const photo = link('photo');
    const logo = link('logo');
    const tool = fixtureResource('tool', fixtureEmbedded);
    const logs = await host.scratch('linkgate-smoke-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const withheld = 'withheld by the scripted hook';
    const answers = {
      'PreToolUse call_read_metadata': {
        stdout: {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'refused by the scripted hook: a metadata address',
          },
        },
      },
      'PostToolUse call_read_banner': { stdout: { decision: 'block', reason: withheld } },
      'PreToolUse call_read_photo': { stderr: 'blocked by the scripted hook with exit 2', exitCode: 2 },
      'PostToolUse call_read_logo': { stderr: 'failed after the read with exit 2', exitCode: 2 },
      'PostToolUse call_embedded': {
        stdout: { decision: 'block', reason: 'embedded items withheld by the scripted hook' },
      },
    };
    const command = await answeringCommand(path.join(logs, 'answers.json'), answers, path.join(logs, 'hooks.jsonl'));
    const read = (id: string, uri: string) => ({
      toolUses: [{ id, name: 'read_mcp_resource', input: { server: 'fixture', uri } }],
    });
    const run = await runCodexCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      hooks: codexHooks(command),
      prompt: 'read the links of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] },
        read('call_read_metadata', metadata.uri),
        read('call_read_banner', banner.uri),
        read('call_read_photo', photo.uri),
        read('call_read_logo', logo.uri),
        { toolUses: [{ id: 'call_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { text: 'done reading' },
      ],
      timeoutMs: 60_000,
    });
    host.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);

    // refused before the read: the server never saw it
    const reads = (await readRequestLog(requestLog)).filter((r) => r.method === 'resources/read').map((r) => r.uri);
    expect(reads).toEqual([banner.uri, logo.uri]);
    const received = (id: string) => outputText(run.toolResults[id]);
    expect(received('call_read_metadata')).toContain('refused by the scripted hook: a metadata address');
    expect(received('call_read_photo')).toContain('blocked by the scripted hook with exit 2');
    // after the read, a block (or an exit 2) replaces the whole result with its reason
    expect(received('call_read_banner')).toContain(withheld);
    expect(received('call_read_logo')).toContain('failed after the read with exit 2');
    expect(received('call_embedded')).toContain('embedded items withheld by the scripted hook');
    const toModel = JSON.stringify(run.modelRequests.map((r) => r.body));
    for (const body of [banner, logo, tool]) expect(toModel).not.toContain(body.marker);

    const sample = stableSample(
      Object.fromEntries(
        ['call_read_metadata', 'call_read_banner', 'call_read_photo', 'call_read_logo', 'call_embedded'].map((id) => [
          id,
          run.toolResults[id],
        ]),
      ),
      run.dir,
    );
    if (record) await writeObserved('codex', 'hook-answers', { answers, toolResults: sample });
    const observed = (await readObserved('codex', 'hook-answers')) as { toolResults: unknown };
    expect(shapeOf(sample)).toEqual(shapeOf(observed.toolResults));
  }, 120_000);
});
