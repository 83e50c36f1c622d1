// The printed Codex set-up when its hook fails (issue 39 item 2): the real Codex CLI, offline, with what
// `linkgate hook codex --print-config --server fixture -- …` prints (the proxy in front of the fixture server, the
// hooks as a second layer), the hook command replaced by one that cannot start or one that hangs. Codex lets a call
// through when its hook fails (on main, with the hooks alone, refused uris were read from the server): the proxy
// refuses them, and no withheld body reaches the model.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { installCodexCli, runCodexCli } from './codex-cli.ts';
import { outputText } from './codex-model-api.ts';
import { serverReads } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import { failingPrintedSetUp, type HookFailure, hookFailures } from './host-failure.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('codex cli', () => installCodexCli());
builtCli();

describe('the printed codex set-up with a failing hook', () => {
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
      const { hooks, fixture } = await failingPrintedSetUp('codex', failure, 5, requestLog, recordsFile);
      const { readme, metadata, photo, banner, tool } = fixtureNamed;
      const read = (id: string, uri: string) => ({
        toolUses: [{ id, name: 'read_mcp_resource', input: { server: 'fixture', uri } }],
      });
      const run = await runCodexCli({
        mcpServers: { fixture },
        hooks,
        prompt: 'read every link of the fixture server',
        script: [
          { toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] },
          read('call_metadata', metadata.uri),
          read('call_photo', photo.uri),
          read('call_readme', readme.uri),
          { toolUses: [{ id: 'call_embedded', name: 'mcp__fixture__embedded', input: {} }] },
          { text: 'all read' },
        ],
        timeoutMs: 240_000,
      });
      host.defer(() => run.cleanup());
      expect(run.timedOut, run.stderr).toBe(false);
      const text = (id: string) => outputText(run.toolResults[id]);
      console.log(`codex, hook that ${failure}: ${run.elapsedMs} ms; metadata ${text('call_metadata').slice(0, 200)}`);

      // the hook did not run: the proxy refused the read before the server was asked
      const reads = await serverReads(requestLog);
      expect(reads).not.toContain(metadata.uri);
      expect(text('call_metadata')).toContain('uri.non-public-address');
      // no withheld body reached the model; the allowed one did
      const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
      for (const withheld of [metadata, photo, banner, tool]) expect(everything).not.toContain(withheld.marker);
      expect(everything).toContain(readme.marker);
      expect(await readFile(recordsFile, 'utf8')).toContain('uri.non-public-address');
    },
  );
});
