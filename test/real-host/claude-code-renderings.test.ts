// How the real Claude Code renders what the hook must recognise: links with descriptions and titles, names, uris and
// descriptions holding brackets, parentheses and spaces, an empty uri, embedded text resources whose uri holds spaces,
// binary resources saved to a file, an image and audio. No gate in between: a recording hook tees every event.
// LINKGATE_RECORD_OBSERVED=1 rewrites observed/claude-code/renderings-*.json from this run (test/hook/ replays them).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { installClaudeCode, recordedEvents, recordingHooks, runClaudeCode } from './claude-code.ts';
import { fixtureServer } from './fixture-process.ts';
import { fixtureDescribedLinks, fixtureRenderings } from './fixture-resources.ts';
import { realHostSuite } from './host-suite.ts';
import { readObserved, shapeOf, stableSample, writeObserved } from './observed-shape.ts';

const host = realHostSuite('claude code', () => installClaudeCode());
const record = process.env['LINKGATE_RECORD_OBSERVED'] === '1';

describe('claude code renders links and embedded resources for the model and its hooks', () => {
  test('every rendering the hook reads back', { timeout: 180_000 }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-smoke-');
    const hookLog = path.join(logs, 'hooks.jsonl');
    const [guide, , odd, tool] = fixtureDescribedLinks;
    const read = (id: string, uri: string | undefined) => ({
      toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri: uri ?? '' } }],
    });
    const run = await runClaudeCode({
      mcpServers: { fixture: fixtureServer(path.join(logs, 'requests.jsonl')) },
      settings: recordingHooks(hookLog, ['PreToolUse', 'PostToolUse', 'PostToolUseFailure']),
      prompt: 'read the described links and the inline documents',
      script: [
        { toolUses: [{ id: 'toolu_described', name: 'mcp__fixture__described', input: {} }] },
        { toolUses: [{ id: 'toolu_renderings', name: 'mcp__fixture__renderings', input: {} }] },
        read('toolu_read_guide', guide?.uri),
        read('toolu_read_odd', odd?.uri),
        read('toolu_read_tool', tool?.uri),
        // the server answers an error (-32002, not found)
        read('toolu_read_missing', 'fixture://docs/missing.txt'),
        { text: 'all read' },
      ],
      allowedTools: ['mcp__fixture__described', 'mcp__fixture__renderings', 'ReadMcpResourceTool'],
      timeoutMs: 150_000,
    });
    host.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);
    const events = await recordedEvents(hookLog);
    const post = (id: string) =>
      events.find((e) => e['hook_event_name'] === 'PostToolUse' && e['tool_use_id'] === id)?.['tool_response'];

    // a link: `[Resource link: NAME] URI`, then ` (DESCRIPTION)` when it has one; no title, type or size
    const described = (post('toolu_described') as { text: string }[]).map((i) => i.text);
    expect(described.slice(1)).toEqual(
      fixtureDescribedLinks.map(
        (l) => `[Resource link: ${l.name}] ${l.uri}${l.description === undefined ? '' : ` (${l.description})`}`,
      ),
    );
    const rendered = JSON.stringify(post('toolu_renderings'));
    // a text resource: `[Resource from SERVER at URI] TEXT`, whatever the uri holds
    for (const r of fixtureRenderings.filter((r) => r.text !== undefined))
      expect(rendered).toContain(JSON.stringify(`[Resource from fixture at ${r.uri}] ${r.text}`).slice(1, -1));
    // a binary resource of another type: `[Resource from SERVER at URI] Binary content (MIME, N bytes) saved to PATH`
    expect(rendered).toMatch(
      /\[Resource from fixture at fixture:\/\/embedded\/tool\.bin\] Binary content \(application\/octet-stream, 64 bytes\) saved to /,
    );
    expect(rendered).toMatch(/\[Audio from fixture\] Binary content \(audio\/wav, \d+ bytes\) saved to /);

    const sample = stableSample(events, run.dir);
    if (record) {
      await writeObserved('claude-code', 'renderings-events', sample);
      await writeObserved('claude-code', 'renderings-tool-results', stableSample(run.toolResults, run.dir));
    }
    expect(shapeOf(sample)).toEqual(shapeOf(await readObserved('claude-code', 'renderings-events')));
  });
});
