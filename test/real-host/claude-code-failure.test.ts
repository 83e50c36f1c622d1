// Claude Code when its hook fails (issue 39 items 2, 6): the real Claude Code, offline, with what `linkgate hook
// claude-code --print-config` prints (hooks with `onFailure: "block"`) and every hook command replaced by one that
// cannot start, crashes, hangs past the hook timeout or answers garbage. With the printed set-up (`--server`: the proxy
// in front of the hostile fixture server, the hooks as a second layer) nothing refused is delivered: the server is
// never asked for a refused uri and no withheld body reaches the model. The hooks alone block a read whose pre hook
// cannot run but let a tool result through, as docs/hosts.md's table says: these runs measure its Claude Code row.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { installClaudeCode, runClaudeCode } from './claude-code.ts';
import { serverReads } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import {
  failedHookRuns,
  failingPrintedSetUp,
  failureModes,
  hooksAloneSuite,
  runsAsPrinted,
  runTimeoutMs,
} from './host-failure.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('claude code', () => installClaudeCode());
builtCli();

// the hook timeout for these runs, seconds (claude code's unit): a hung hook is ended by claude code after it
const hookTimeout = 3;

const { readme, metadata, photo, banner, tool } = fixtureNamed;
const read = (id: string, uri: string) => ({
  toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri } }],
});
const allowedTools = ['mcp__fixture__links', 'mcp__fixture__embedded', 'ReadMcpResourceTool'];

describe('the printed claude code set-up with a failing hook', () => {
  test.for(failureModes)('a hook that %s: nothing refused is delivered', { timeout: 300_000 }, async (failure, ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-failure-');
    const setUp = await failingPrintedSetUp('claude-code', failure, { timeout: hookTimeout, logs, proxy: true });
    for (const entries of Object.values(setUp.hooks.hooks))
      for (const entry of entries) for (const handler of entry.hooks) expect(handler.onFailure).toBe('block');
    const run = await runClaudeCode({
      mcpServers: { fixture: setUp.fixture },
      settings: setUp.hooks,
      prompt: 'read every link of the fixture server',
      script: [
        { toolUses: [{ id: 'toolu_links', name: 'mcp__fixture__links', input: {} }] },
        read('toolu_metadata', metadata.uri),
        read('toolu_photo', photo.uri),
        { toolUses: [{ id: 'toolu_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { text: 'all read' },
      ],
      allowedTools,
      timeoutMs: runTimeoutMs,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
    console.log(
      `claude code, hook that ${failure}: ${run.elapsedMs} ms; links ${text('toolu_links').slice(0, 400)}; metadata ${text('toolu_metadata').slice(0, 200)}`,
    );

    // claude code ran the failing hook before the reads and after the tools
    expect(await failedHookRuns(setUp)).toEqual(expect.arrayContaining(['PreToolUse', 'PostToolUse']));
    // the server was never asked for a refused uri
    expect(await serverReads(setUp.requestLog)).not.toContain(metadata.uri);
    // (a body the gate withholds, such as the executable photo, may be read: a hook that answers garbage lets the read
    // go on, and the proxy reads it to judge it; it never reaches the model, below)
    // no refused link reached the model as a link, no withheld body at all
    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    for (const withheld of [metadata, photo, banner, tool]) expect(everything).not.toContain(withheld.marker);
    expect(text('toolu_links')).not.toContain(metadata.uri);
    expect(text('toolu_links')).toContain(`[Resource link: readme] ${readme.uri}`);
    expect(text('toolu_embedded')).toContain('content.executable');
    // the proxy recorded the refusals itself
    expect(await readFile(setUp.recordsFile, 'utf8')).toContain('uri.non-public-address');
  });
});

// docs/hosts.md, the Claude Code row (`onFailure: "block"`, as printed): what the hooks alone let through when they fail
hooksAloneSuite(host, {
  host: 'claude-code',
  label: 'claude code',
  hookTimeout,
  events: ['PreToolUse', 'PostToolUse'],
  row: {
    // the control: the same measure tells working hooks apart
    [runsAsPrinted]: { beforeRead: 'blocked', afterTool: 'withheld' },
    'cannot start': { beforeRead: 'blocked', afterTool: 'as it came' },
    crashes: { beforeRead: 'blocked', afterTool: 'as it came' },
    hangs: { beforeRead: 'blocked', afterTool: 'as it came' },
    'answers garbage': { beforeRead: 'goes ahead', afterTool: 'as it came' },
  },
  links: { id: 'toolu_links', name: 'mcp__fixture__links' },
  readMetadata: read('toolu_metadata', metadata.uri),
  async run(setUp, common) {
    const run = await runClaudeCode({ ...common, settings: setUp.hooks, allowedTools });
    return { run, linksResult: JSON.stringify(run.toolResults['toolu_links'] ?? null) };
  },
});
