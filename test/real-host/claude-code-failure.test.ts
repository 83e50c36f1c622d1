// The printed Claude Code set-up when its hook fails (issue 39 items 2, 6): the real Claude Code, offline, with what
// `linkgate hook claude-code --print-config --server fixture -- …` prints (the proxy in front of the hostile fixture
// server, the hooks with `onFailure: "block"` as a second layer), and the hook command replaced by one that cannot
// start or one that hangs past the hook timeout. Nothing refused may be delivered: the server is never asked for a
// refused uri and no withheld body reaches the model. (On main the printed hooks alone let the tool result with its
// refused links through when the post hook could not run.)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { installClaudeCode, runClaudeCode } from './claude-code.ts';
import { serverReads, tsServerCommand } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import { type HookFailure, hookFailures } from './host-failure.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('claude code', () => installClaudeCode());
builtCli();

// the hook timeout for these runs, seconds: the printed 30 s only makes a hung hook take longer to give up
const hungTimeoutSeconds = 5;

type Handler = { command: string; timeout: number; onFailure?: string };
type Entry = { matcher: string; hooks: Handler[] };

describe('the printed claude code set-up with a failing hook', () => {
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
      const printed = await runCli([
        'hook',
        'claude-code',
        '--print-config',
        '--records',
        recordsFile,
        '--server',
        'fixture',
        '--',
        ...tsServerCommand(),
      ]);
      expect(printed.code, printed.stderr).toBe(0);
      const { hooks, mcpServers } = JSON.parse(printed.stdout) as {
        hooks: Record<string, Entry[]>;
        mcpServers: Record<string, { command: string; args: string[] }>;
      };
      for (const entries of Object.values(hooks))
        for (const entry of entries)
          for (const handler of entry.hooks) {
            expect(handler.onFailure).toBe('block');
            handler.command = hookFailures[failure](handler.command);
            handler.timeout = hungTimeoutSeconds;
          }
      const proxy = mcpServers['fixture'];
      if (proxy === undefined) throw new Error('no proxy entry printed');
      const fixture = { command: proxy.command, args: proxy.args, env: { LINKGATE_REQUEST_LOG: requestLog } };

      const { readme, metadata, photo, banner } = fixtureNamed;
      const read = (id: string, uri: string) => ({
        toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri } }],
      });
      const run = await runClaudeCode({
        mcpServers: { fixture },
        settings: { hooks },
        prompt: 'read every link of the fixture server',
        script: [
          { toolUses: [{ id: 'toolu_links', name: 'mcp__fixture__links', input: {} }] },
          read('toolu_metadata', metadata.uri),
          read('toolu_photo', photo.uri),
          { toolUses: [{ id: 'toolu_embedded', name: 'mcp__fixture__embedded', input: {} }] },
          { text: 'all read' },
        ],
        allowedTools: ['mcp__fixture__links', 'mcp__fixture__embedded', 'ReadMcpResourceTool'],
        timeoutMs: 240_000,
      });
      host.defer(() => run.cleanup());
      expect(run.timedOut, run.stderr).toBe(false);
      const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
      console.log(
        `claude code, hook that ${failure}: ${run.elapsedMs} ms; links ${text('toolu_links').slice(0, 400)}; metadata ${text('toolu_metadata').slice(0, 200)}`,
      );

      // the server was never asked for a refused uri
      const reads = await serverReads(requestLog);
      expect(reads).not.toContain(metadata.uri);
      // (a body the gate withholds, such as the executable photo, may be read: a hook that answers garbage lets the read
      // go on, and the proxy reads it to judge it; it never reaches the model, below)
      // no refused link reached the model as a link, no withheld body at all
      const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
      for (const withheld of [metadata, photo, banner, fixtureNamed.tool])
        expect(everything).not.toContain(withheld.marker);
      expect(text('toolu_links')).not.toContain(`[Resource link: metadata] ${metadata.uri}`);
      expect(text('toolu_links')).toContain(`[Resource link: readme] ${readme.uri}`);
      expect(text('toolu_embedded')).toContain('content.executable');
      // the proxy recorded the refusals itself
      expect(await readFile(recordsFile, 'utf8')).toContain('uri.non-public-address');
    },
  );
});
