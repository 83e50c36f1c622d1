// The printed Gemini CLI set-up when its hook fails (issue 39 item 2): the real Gemini CLI, offline, with what
// `linkgate hook gemini-cli --print-config --server fixture -- …` prints (the proxy in front of the fixture server,
// the hooks as a second layer), the hook command replaced by one that cannot start or one that hangs. Gemini CLI lets
// a call and its result through when its hook fails (on main, with the hooks alone, the tool result passed): the proxy
// refuses the refused reads and withholds the bodies.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { serverReads } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import { installGeminiCli, runGeminiCli } from './gemini-cli.ts';
import { failingPrintedSetUp, type HookFailure, hookFailures } from './host-failure.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('gemini cli', () => installGeminiCli());
builtCli();

describe('the printed gemini cli set-up with a failing hook', () => {
  test.for(Object.keys(hookFailures) as HookFailure[])(
    'a hook that %s: nothing refused is delivered',
    {
      timeout: 300_000,
    },
    async (failure, ctx) => {
      host.require(ctx);
      const logs = await host.scratch('linkgate-failure-');
      const requestLog = path.join(logs, 'requests.jsonl');
      const recordsFile = path.join(logs, 'records.jsonl');
      // gemini cli's hook timeouts are milliseconds
      const { hooks, fixture } = await failingPrintedSetUp('gemini-cli', failure, 5000, requestLog, recordsFile);
      const { readme, metadata, photo, banner, tool } = fixtureNamed;
      const read = (id: string, uri: string) => ({ toolUses: [{ id, name: 'read_mcp_resource', input: { uri } }] });
      const run = await runGeminiCli({
        mcpServers: { fixture },
        settings: hooks,
        prompt: 'read every link of the fixture server',
        script: [
          { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
          read('call_metadata', metadata.uri),
          read('call_photo', photo.uri),
          read('call_readme', readme.uri),
          { toolUses: [{ id: 'call_embedded', name: 'mcp_fixture_embedded', input: {} }] },
          { text: 'all read' },
        ],
        timeoutMs: 240_000,
      });
      host.defer(() => run.cleanup());
      expect(run.timedOut, run.stderr).toBe(false);
      const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
      console.log(
        `gemini cli, hook that ${failure}: ${run.elapsedMs} ms; metadata ${text('call_metadata').slice(0, 200)}`,
      );

      const reads = await serverReads(requestLog);
      expect(reads).not.toContain(metadata.uri);
      const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
      for (const withheld of [metadata, photo, banner, tool]) expect(everything).not.toContain(withheld.marker);
      expect(everything).toContain(readme.marker);
      expect(await readFile(recordsFile, 'utf8')).toContain('uri.non-public-address');
    },
  );
});
