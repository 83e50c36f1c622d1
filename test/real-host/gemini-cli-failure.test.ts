// Gemini CLI when its hook fails (issue 39 item 2): the real Gemini CLI, offline, with what `linkgate hook gemini-cli
// --print-config` prints and every hook command replaced by one that cannot start, crashes, hangs past the hook timeout
// or answers garbage. With the printed set-up (`--server`: the proxy in front of the fixture server, the hooks as a
// second layer) nothing refused is delivered: the server is never asked for a refused uri and no withheld body reaches
// the model. The hooks alone fail open, as docs/hosts.md's table says: these runs measure its Gemini CLI row.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { serverReads } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import { installGeminiCli, runGeminiCli } from './gemini-cli.ts';
import {
  failedHookRuns,
  failingPrintedSetUp,
  failsOpenRow,
  failureModes,
  hooksAloneSuite,
  runTimeoutMs,
} from './host-failure.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('gemini cli', () => installGeminiCli());
builtCli();

// the hook timeout for these runs, milliseconds (gemini cli's unit): a hung hook is ended by gemini cli after it
const hookTimeout = 3000;

const { readme, metadata, photo, banner, tool } = fixtureNamed;
const read = (id: string, uri: string) => ({ toolUses: [{ id, name: 'read_mcp_resource', input: { uri } }] });

describe('the printed gemini cli set-up with a failing hook', () => {
  test.for(failureModes)('a hook that %s: nothing refused is delivered', { timeout: 300_000 }, async (failure, ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-failure-');
    const setUp = await failingPrintedSetUp('gemini-cli', failure, { timeout: hookTimeout, logs, proxy: true });
    const run = await runGeminiCli({
      mcpServers: { fixture: setUp.fixture },
      settings: setUp.hooks,
      prompt: 'read every link of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
        read('call_metadata', metadata.uri),
        read('call_photo', photo.uri),
        read('call_readme', readme.uri),
        { toolUses: [{ id: 'call_embedded', name: 'mcp_fixture_embedded', input: {} }] },
        { text: 'all read' },
      ],
      timeoutMs: runTimeoutMs,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
    console.log(
      `gemini cli, hook that ${failure}: ${run.elapsedMs} ms; links ${text('call_links').slice(0, 600)}; metadata ${text('call_metadata').slice(0, 200)}`,
    );

    // gemini cli ran the failing hook before the read and after the tool
    expect(await failedHookRuns(setUp)).toEqual(expect.arrayContaining(['BeforeTool', 'AfterTool']));
    // the hook did not answer, and no read of the refused uri reached the proxy: gemini cli's read tool reads only
    // resources a server lists, and the proxy's listing leaves the refused one out, so the model got gemini cli's own
    // "not found" (with the fixture server listing it, through the failing hooks alone, it got the body)
    expect(text('call_metadata')).toContain('Resource not found');
    expect(await serverReads(setUp.requestLog)).not.toContain(metadata.uri);
    // the proxy's notice stands where the refused link was, in the tool result the post hook could not judge
    expect(text('call_links')).not.toContain(metadata.uri);
    expect(text('call_links')).toMatch(/linkgate refused the link[^"]*uri\.non-public-address/);
    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    for (const withheld of [metadata, photo, banner, tool]) expect(everything).not.toContain(withheld.marker);
    expect(everything).toContain(readme.marker);
    expect(await readFile(setUp.recordsFile, 'utf8')).toContain('uri.non-public-address');
  });
});

// docs/hosts.md, the Gemini CLI row: what the hooks alone let through when they fail
hooksAloneSuite(host, {
  host: 'gemini-cli',
  label: 'gemini cli',
  hookTimeout,
  events: ['BeforeTool', 'AfterTool'],
  row: failsOpenRow,
  links: { id: 'call_links', name: 'mcp_fixture_links' },
  readMetadata: read('call_metadata', metadata.uri),
  async run(setUp, common) {
    const run = await runGeminiCli({ ...common, settings: setUp.hooks });
    return { run, linksResult: JSON.stringify(run.toolResults['call_links'] ?? null) };
  },
});
