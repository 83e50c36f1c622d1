// `linkgate hook copilot-cli` in the real Copilot CLI (issue 43 item 3), offline through its BYOK provider: the printed
// `preToolUse` hook refuses a `web_fetch` of a url the policy refuses before it runs, says nothing for an MCP tool
// (Copilot hands the model a result's text only: its links never reach the model), and a hook that fails lets the
// fetch go ahead (Copilot CLI skips a failing hook).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { toolMessageText } from './chat-completions-model-api.ts';
import { installCopilotCli, runCopilotCli } from './copilot-cli.ts';
import { fixtureServer, readRequestLog } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('copilot cli', () => installCopilotCli());
builtCli();

type Hooks = { version: number; hooks: Record<string, { bash: string }[]> };

async function printed(records: string): Promise<Hooks> {
  const out = await runCli(['hook', 'copilot-cli', '--print-config', '--records', records]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as Hooks;
}

// a url with credentials in it: the default policy refuses it (`uri.userinfo`), Copilot's own fetch would try it
const url = 'https://reader:s3cret@docs.example.com/guide';
const fetchThenLinks = [
  { toolUses: [{ id: 'call_fetch', name: 'web_fetch', input: { url } }] },
  { toolUses: [{ id: 'call_links', name: 'fixture-links', input: {} }] },
  { text: 'done' },
];

describe('linkgate hook copilot-cli, in the real copilot cli', () => {
  test('the printed hook refuses a web fetch the policy refuses and lets an mcp tool run', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-copilot-');
    const records = path.join(logs, 'records.jsonl');
    const requests = path.join(logs, 'requests.jsonl');
    const run = await runCopilotCli({
      mcpServers: { fixture: fixtureServer(requests) },
      hooks: await printed(records),
      prompt: 'fetch the guide, then list the links',
      script: fetchThenLinks,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    console.log(`copilot cli, printed hook: ${run.elapsedMs} ms`);
    const fetched = toolMessageText(run.toolResults['call_fetch']);
    expect(fetched).toContain('uri.userinfo');
    expect(fetched).not.toContain('s3cret');
    expect(await readFile(records, 'utf8')).toContain('uri.userinfo');
    // the MCP tool ran; Copilot gave the model its text only, none of its links
    expect((await readRequestLog(requests)).map((r) => r.method)).toContain('tools/call');
    const links = toolMessageText(run.toolResults['call_links']);
    expect(links).toContain('links follow');
    expect(links).not.toContain(fixtureNamed.metadata.uri);
  });

  test('a hook that crashes is skipped: the fetch goes ahead', { timeout: 240_000 }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-copilot-');
    const config = await printed(path.join(logs, 'records.jsonl'));
    for (const handlers of Object.values(config.hooks))
      for (const handler of handlers) handler.bash = 'cat >/dev/null; echo "linkgate crashed" >&2; exit 1';
    const run = await runCopilotCli({
      mcpServers: { fixture: fixtureServer(path.join(logs, 'requests.jsonl')) },
      hooks: config,
      prompt: 'fetch the guide',
      script: [fetchThenLinks[0] ?? {}, { text: 'done' }],
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    // no deny: Copilot tried the fetch itself (offline, so it failed on its own terms)
    const fetched = toolMessageText(run.toolResults['call_fetch']);
    expect(fetched).not.toBe('');
    expect(fetched).not.toContain('uri.userinfo');
  });
});
