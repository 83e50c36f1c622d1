// The harness with Gemini CLI and no linkgate in between: the real CLI, offline, calls the fixture server's tools
// and reads links with its read_mcp_resource tool; the scripted Gemini API sees the bodies.
// LINKGATE_RECORD_OBSERVED=1 rewrites observed/gemini-cli/*.json from this run; otherwise the run's hook events
// must keep the recorded shape.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { answeringCommand, recordedEvents } from './claude-code.ts';
import { fixtureServer, readRequestLog } from './fixture-process.ts';
import { type FixtureResource, fixtureEmbedded, fixtureLinks, fixtureResource } from './fixture-resources.ts';
import { geminiCliHooks, geminiRecordingHooks, installGeminiCli, runGeminiCli } from './gemini-cli.ts';
import { realHostSuite } from './host-suite.ts';
import { readObserved, shapeOf, stableSample, writeObserved } from './observed-shape.ts';

const host = realHostSuite('gemini cli', () => installGeminiCli());
const record = process.env['LINKGATE_RECORD_OBSERVED'] === '1';

const link = (name: string): FixtureResource => fixtureResource(name, fixtureLinks);

describe('gemini cli against the fixture server, no gate in between', () => {
  test('tool links, resource reads and hook events reach the model and the server as sent', async (ctx) => {
    host.require(ctx);
    const readme = link('readme');
    const logo = link('logo');
    const logs = await host.scratch('linkgate-smoke-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const hookLog = path.join(logs, 'hooks.jsonl');
    const run = await runGeminiCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings: geminiRecordingHooks(hookLog),
      prompt: 'list the links of the fixture server and read them',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
        { toolUses: [{ id: 'call_read_text', name: 'read_mcp_resource', input: { uri: readme.uri } }] },
        { toolUses: [{ id: 'call_read_blob', name: 'read_mcp_resource', input: { uri: logo.uri } }] },
        { toolUses: [{ id: 'call_embedded', name: 'mcp_fixture_embedded', input: {} }] },
        { toolUses: [{ id: 'call_list', name: 'list_mcp_resources', input: { serverName: 'fixture' } }] },
        { text: 'all read' },
      ],
      timeoutMs: 120_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);

    // the model saw every link the tool returned, then the readme's body in the request after the read
    const links = JSON.stringify(run.toolResults['call_links']?.response);
    for (const l of fixtureLinks) expect(links).toContain(l.uri);
    const [, beforeRead, afterRead] = run.modelRequests.filter((r) => r.agentTurn);
    expect(JSON.stringify(beforeRead?.body)).not.toContain(readme.marker);
    expect(JSON.stringify(afterRead?.body)).toContain(readme.marker);
    expect(JSON.stringify(run.toolResults['call_read_text']?.response)).toContain(readme.marker);
    expect(JSON.stringify(run.toolResults['call_embedded']?.response)).toContain(fixtureEmbedded[0]?.marker);

    // the server was asked exactly for the two reads the model made
    const reads = (await readRequestLog(requestLog)).filter((r) => r.method === 'resources/read').map((r) => r.uri);
    expect(reads).toEqual([readme.uri, logo.uri]);

    // a recording hook saw a BeforeTool and an AfterTool for every tool call, in call order
    const events = await recordedEvents(hookLog);
    const seen = events.map((e) => `${String(e['hook_event_name'])} ${String(e['tool_name'])}`);
    const calls = ['mcp_fixture_links', 'read_mcp_resource', 'read_mcp_resource', 'mcp_fixture_embedded'];
    expect(seen.slice(0, 8)).toEqual(calls.flatMap((t) => [`BeforeTool ${t}`, `AfterTool ${t}`]));
    const readAfter = events.find(
      (e) => e['hook_event_name'] === 'AfterTool' && e['tool_name'] === 'read_mcp_resource',
    );
    expect(readAfter?.['tool_input']).toEqual({ uri: readme.uri });
    expect(JSON.stringify(readAfter?.['tool_response'])).toContain(readme.marker);

    const hookSample = stableSample(events, run.dir);
    if (record) {
      await writeObserved('gemini-cli', 'hook-events', hookSample);
      await writeObserved('gemini-cli', 'tool-results', stableSample(run.toolResults, run.dir));
      await writeObserved('gemini-cli', 'stream-json', stableSample(run.events, run.dir));
    }
    expect(shapeOf(hookSample)).toEqual(shapeOf(await readObserved('gemini-cli', 'hook-events')));
  }, 180_000);

  test('hook answers: a BeforeTool deny and an exit 2 keep the read from the server, an AfterTool deny replaces the body', async (ctx) => {
    host.require(ctx);
    const metadata = link('metadata');
    const banner = link('banner');
    const photo = link('photo');
    const logs = await host.scratch('linkgate-smoke-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const withheld = 'withheld by the scripted hook';
    const answers = {
      [`BeforeTool read_mcp_resource ${metadata.uri}`]: {
        stdout: { decision: 'deny', reason: 'refused by the scripted hook: a metadata address' },
      },
      [`AfterTool read_mcp_resource ${banner.uri}`]: { stdout: { decision: 'deny', reason: withheld } },
      [`BeforeTool read_mcp_resource ${photo.uri}`]: {
        stderr: 'blocked by the scripted hook with exit 2',
        exitCode: 2,
      },
    };
    const command = await answeringCommand(path.join(logs, 'answers.json'), answers, path.join(logs, 'hooks.jsonl'));
    const read = (id: string, uri: string) => ({ toolUses: [{ id, name: 'read_mcp_resource', input: { uri } }] });
    const run = await runGeminiCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings: geminiCliHooks(command),
      prompt: 'read the links of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
        read('call_read_metadata', metadata.uri),
        read('call_read_banner', banner.uri),
        read('call_read_photo', photo.uri),
        { text: 'done reading' },
      ],
      timeoutMs: 120_000,
    });
    host.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);

    const reads = (await readRequestLog(requestLog)).filter((r) => r.method === 'resources/read').map((r) => r.uri);
    expect(reads).toEqual([banner.uri]);
    expect(JSON.stringify(run.toolResults['call_read_metadata']?.response)).toContain(
      'refused by the scripted hook: a metadata address',
    );
    expect(JSON.stringify(run.toolResults['call_read_banner']?.response)).toContain(withheld);
    expect(JSON.stringify(run.modelRequests.map((r) => r.body))).not.toContain(banner.marker);
    expect(JSON.stringify(run.toolResults['call_read_photo']?.response)).toContain(
      'blocked by the scripted hook with exit 2',
    );

    const sample = stableSample(
      Object.fromEntries(
        ['call_read_metadata', 'call_read_banner', 'call_read_photo'].map((id) => [id, run.toolResults[id]]),
      ),
      run.dir,
    );
    if (record) await writeObserved('gemini-cli', 'hook-answers', { answers, toolResults: sample });
    const observed = (await readObserved('gemini-cli', 'hook-answers')) as { toolResults: unknown };
    expect(shapeOf(sample)).toEqual(shapeOf(observed.toolResults));
  }, 180_000);
});
