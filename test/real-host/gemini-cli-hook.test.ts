// linkgate as Gemini CLI's BeforeTool/AfterTool hook: the real CLI, offline, the hostile fixture server and a
// scripted model; checks what the server was asked, what the model received next and what the records say.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { linkRecordLines, runCli } from '../helpers/run-cli.ts';
import { fixtureServer, serverReads } from './fixture-process.ts';
import { type FixtureResource, fixtureNamed } from './fixture-resources.ts';
import { installGeminiCli, runGeminiCli } from './gemini-cli.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('gemini cli', () => installGeminiCli());
builtCli();

describe('linkgate hook gemini-cli inside a real Gemini CLI', () => {
  test('refused links are never read, withheld bodies never reach the model, allowed ones do', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-gemini-e2e-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const recordsFile = path.join(logs, 'records.jsonl');
    // the settings block `linkgate hook gemini-cli --print-config` prints, unchanged (the per-event start, issue 42)
    const printed = await runCli(['hook', 'gemini-cli', '--print-config', '--records', recordsFile]);
    expect(printed.code, printed.stderr).toBe(0);
    const settings = JSON.parse(printed.stdout) as Record<string, unknown>;
    const { readme, metadata, banner, note, tool } = fixtureNamed;
    const read = (id: string, r: FixtureResource) => ({
      toolUses: [{ id, name: 'read_mcp_resource', input: { uri: r.uri } }],
    });
    const run = await runGeminiCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings,
      prompt: 'read every link of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
        read('call_metadata', metadata),
        read('call_readme', readme),
        read('call_banner', banner),
        { toolUses: [{ id: 'call_embedded', name: 'mcp_fixture_embedded', input: {} }] },
        { text: 'all read' },
      ],
      timeoutMs: 180_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
    if (process.env['LINKGATE_SHOW_MODEL_TEXT'] === '1') {
      for (const id of ['call_metadata', 'call_readme', 'call_banner', 'call_embedded']) console.log(id, text(id));
    }

    const reads = await serverReads(requestLog);
    expect(reads).not.toContain(metadata?.uri);
    expect(reads).toContain(readme?.uri);
    expect(text('call_metadata')).toContain('uri.non-public-address');

    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    expect(everything).toContain(readme?.marker);
    expect(everything).toContain(note?.marker);
    for (const withheld of [metadata, banner, tool]) expect(everything).not.toContain(withheld.marker);
    expect(text('call_banner')).toMatch(/linkgate withheld/);

    // the link refused where the tool result listed it is recorded there (the model got the notice in its place),
    // and the scripted model's attempt to read it anyway is refused again and recorded as that attempt
    const records = linkRecordLines(await readFile(recordsFile, 'utf8')) as LinkRecord[];
    expect(records.map((r) => [r.uri, r.verdict])).toEqual([
      [metadata?.uri, 'link-only'],
      [metadata?.uri, 'link-only'],
      [readme?.uri, 'body-obtained'],
      [banner?.uri, expect.stringMatching(/^(link-only|partially-interpreted)$/)],
    ]);
  });
});
