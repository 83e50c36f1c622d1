// Codex CLI when its hook fails (issue 39 item 2): the real Codex CLI, offline, with what `linkgate hook codex
// --print-config` prints and every hook command replaced by one that cannot start, crashes, hangs past the hook timeout
// or answers garbage. With the printed set-up (`--server`: the proxy in front of the fixture server, the hooks as a
// second layer) nothing refused is delivered: the server is never asked for a refused uri and no withheld body reaches
// the model. The hooks alone fail open, as docs/hosts.md's table says: these runs measure its Codex row.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { installCodexCli, runCodexCli } from './codex-cli.ts';
import { outputText } from './codex-model-api.ts';
import { serverReads } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import {
  failedHookRuns,
  failingPrintedSetUp,
  failsOpenRow,
  failureModes,
  hooksAloneSuite,
  runTimeoutMs,
} from './host-failure.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('codex cli', () => installCodexCli());
builtCli();

// the hook timeout for these runs, seconds (codex's unit): a hung hook is ended by codex after it
const hookTimeout = 3;

const { readme, metadata, photo, banner, tool } = fixtureNamed;
const read = (id: string, uri: string) => ({
  toolUses: [{ id, name: 'read_mcp_resource', input: { server: 'fixture', uri } }],
});

describe('the printed codex set-up with a failing hook', () => {
  test.for(failureModes)('a hook that %s: nothing refused is delivered', { timeout: 300_000 }, async (failure, ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-failure-');
    const setUp = await failingPrintedSetUp('codex', failure, { timeout: hookTimeout, logs, proxy: true });
    const run = await runCodexCli({
      mcpServers: { fixture: setUp.fixture },
      hooks: setUp.hooks,
      prompt: 'read every link of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] },
        read('call_metadata', metadata.uri),
        read('call_photo', photo.uri),
        read('call_readme', readme.uri),
        { toolUses: [{ id: 'call_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { text: 'all read' },
      ],
      timeoutMs: runTimeoutMs,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    const text = (id: string) => outputText(run.toolResults[id]);
    console.log(`codex, hook that ${failure}: ${run.elapsedMs} ms; metadata ${text('call_metadata').slice(0, 200)}`);

    // codex ran the failing hook before the read and after the tool
    expect(await failedHookRuns(setUp)).toEqual(expect.arrayContaining(['PreToolUse', 'PostToolUse']));
    // the hook did not answer: the proxy refused the read before the server was asked
    expect(await serverReads(setUp.requestLog)).not.toContain(metadata.uri);
    expect(text('call_metadata')).toContain('uri.non-public-address');
    // and replaced the refused link in the tool result the post hook could not judge
    expect(text('call_links')).not.toContain(metadata.uri);
    // no withheld body reached the model; the allowed one did
    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    for (const withheld of [metadata, photo, banner, tool]) expect(everything).not.toContain(withheld.marker);
    expect(everything).toContain(readme.marker);
    expect(await readFile(setUp.recordsFile, 'utf8')).toContain('uri.non-public-address');
  });
});

// docs/hosts.md, the Codex CLI row: what the hooks alone let through when they fail
hooksAloneSuite(host, {
  host: 'codex',
  label: 'codex',
  hookTimeout,
  events: ['PreToolUse', 'PostToolUse'],
  row: failsOpenRow,
  links: { id: 'call_links', name: 'mcp__fixture__links' },
  readMetadata: read('call_metadata', metadata.uri),
  async run(setUp, common) {
    const run = await runCodexCli({ ...common, hooks: setUp.hooks });
    return { run, linksResult: outputText(run.toolResults['call_links']) };
  },
});
