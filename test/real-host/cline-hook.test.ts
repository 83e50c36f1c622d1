// `linkgate hook cline` in the real Cline CLI (issue 43 item 3), offline against the scripted model and the hostile
// fixture server: the events Cline hands its hook files parse to the calls they are; the printed hook files refuse a
// web fetch of a metadata address before it runs and stop the task before a tool result holding a refused link
// reaches the model; hook files that fail let the call through (Cline fails open, whatever the exit code), so the
// printed set-up with the proxy in front delivers nothing refused even then.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { clineHost } from '../../src/hook/cline-host.ts';
import { runCli } from '../helpers/run-cli.ts';
import { toolMessageText } from './chat-completions-model-api.ts';
import { installCline, recordingHookFile, runCline } from './cline.ts';
import { fixtureServer, readRequestLog, tsServerCommand } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('cline', () => installCline());
builtCli();

async function printed(records: string, server?: string[]): Promise<Record<string, unknown>> {
  const tail = server === undefined ? [] : ['--server', 'fixture', '--', ...server];
  const out = await runCli(['hook', 'cline', '--print-config', '--records', records, ...tail]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as Record<string, unknown>;
}

const hookFilesOf = (config: Record<string, unknown>) => config['hookFiles'] as Record<string, string>;
const everything = (run: { modelRequests: { body: unknown }[] }) =>
  JSON.stringify(run.modelRequests.map((r) => r.body));

describe('linkgate hook cline, in the real cline cli', () => {
  test('the events cline hands its hook files are read as the calls they are', { timeout: 240_000 }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-cline-');
    const events = path.join(logs, 'events.jsonl');
    const run = await runCline({
      mcpServers: { fixture: fixtureServer(path.join(logs, 'requests.jsonl')) },
      hookFiles: { PreToolUse: recordingHookFile(events), PostToolUse: recordingHookFile(events) },
      prompt: 'list the links of the fixture server',
      script: [{ toolUses: [{ id: 'call_links', name: 'fixture__links', input: {} }] }, { text: 'listed' }],
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    const seen = (await readFile(events, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const parsed = seen.map((e) => clineHost.parse(e));
    expect(parsed.map((e) => [e?.phase, e?.call, e?.toolUseId])).toEqual([
      ['pre', { kind: 'mcp', server: 'fixture', tool: 'links' }, 'call_links'],
      ['post', { kind: 'mcp', server: 'fixture', tool: 'links' }, 'call_links'],
    ]);
    // the post event carries the server's own items, links with their declared types
    const content = (parsed[1]?.response as { content: { type: string; uri?: string; mimeType?: string }[] }).content;
    expect(content.filter((i) => i.type === 'resource_link').map((i) => [i.uri, i.mimeType])).toContainEqual([
      fixtureNamed.metadata.uri,
      fixtureNamed.metadata.mimeType,
    ]);
    // the model read the result as the JSON of its items: the refused link reached it (no gate in this run)
    expect(toolMessageText(run.toolResults['call_links'])).toContain(fixtureNamed.metadata.uri);
  });

  test('the printed hook files stop the task before a result with a refused link reaches the model', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-cline-');
    const records = path.join(logs, 'records.jsonl');
    const requests = path.join(logs, 'requests.jsonl');
    const run = await runCline({
      mcpServers: { fixture: fixtureServer(requests) },
      hookFiles: hookFilesOf(await printed(records)),
      prompt: 'list the links of the fixture server',
      script: [{ toolUses: [{ id: 'call_links', name: 'fixture__links', input: {} }] }, { text: 'listed' }],
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    console.log(`cline, printed hooks, refused link: ${run.elapsedMs} ms, exit ${run.exitCode}`);
    // the pre hook let the call go (the server answered it), the post hook stopped the task: no model turn got it
    expect((await readRequestLog(requests)).map((r) => r.method)).toContain('tools/call');
    expect(run.modelRequests.filter((r) => r.agentTurn)).toHaveLength(1);
    expect(everything(run)).not.toContain(fixtureNamed.metadata.uri);
    expect(await readFile(records, 'utf8')).toContain('uri.non-public-address');
  });

  test('the printed hook files refuse a web fetch of a metadata address before it runs', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-cline-');
    const records = path.join(logs, 'records.jsonl');
    const url = 'http://169.254.169.254/latest/meta-data/';
    const run = await runCline({
      mcpServers: { fixture: fixtureServer(path.join(logs, 'requests.jsonl')) },
      hookFiles: hookFilesOf(await printed(records)),
      prompt: 'fetch the page',
      script: [
        { toolUses: [{ id: 'call_fetch', name: 'fetch_web_content', input: { requests: [{ url, prompt: 'all' }] } }] },
        { text: 'fetched' },
      ],
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    // the task stopped at the pre hook: the fetch never ran and the model got no second turn
    expect(run.modelRequests.filter((r) => r.agentTurn)).toHaveLength(1);
    expect(run.toolResults['call_fetch']).toBeUndefined();
    expect(await readFile(records, 'utf8')).toContain('uri.non-public-address');
  });
});

// hook files that fail: as the failure suites of the other hosts, without `hang` (Cline waits 120 s for a hook)
const failures = {
  'cannot start': (script: string) =>
    script.replace(/exec '?[^ ']*node'? '?[^ ']+'?/, "exec node '/nonexistent/linkgate.js'"),
  crashes: () => '#!/bin/sh\ncat >/dev/null\necho "linkgate crashed" >&2\nexit 1\n',
  'answers garbage': () => '#!/bin/sh\ncat >/dev/null\necho "{not json"\n',
} as const;

describe('cline with failing hook files', () => {
  test.for(Object.keys(failures) as (keyof typeof failures)[])(
    'a hook that %s: cline lets the result through; with the printed proxy nothing refused is delivered',
    { timeout: 300_000 },
    async (failure, ctx) => {
      host.require(ctx);
      const logs = await host.scratch('linkgate-cline-');
      const requests = path.join(logs, 'requests.jsonl');
      const records = path.join(logs, 'records.jsonl');
      const script = [
        { toolUses: [{ id: 'call_links', name: 'fixture__links', input: {} }] },
        { toolUses: [{ id: 'call_embedded', name: 'fixture__embedded', input: {} }] },
        { text: 'done' },
      ];
      const failing = (files: Record<string, string>) =>
        Object.fromEntries(Object.entries(files).map(([name, text]) => [name, failures[failure](text)]));

      // hooks alone: the task goes on and the model reads the refused link and the withheld body
      const alone = await runCline({
        mcpServers: { fixture: fixtureServer(requests) },
        hookFiles: failing(hookFilesOf(await printed(records))),
        prompt: 'list the links',
        script,
      });
      host.defer(() => alone.cleanup());
      expect(alone.timedOut, alone.stderr).toBe(false);
      expect(everything(alone)).toContain(fixtureNamed.metadata.uri);

      // the printed set-up with the proxy in front of the server
      const config = await printed(records, tsServerCommand());
      const proxy = (config['mcpServers'] as Record<string, { command: string; args: string[] }>)['fixture'];
      if (proxy === undefined) throw new Error('no proxy entry printed');
      const run = await runCline({
        mcpServers: { fixture: { ...proxy, env: { LINKGATE_REQUEST_LOG: requests } } },
        hookFiles: failing(hookFilesOf(config)),
        prompt: 'list the links',
        script,
      });
      host.defer(() => run.cleanup());
      expect(run.timedOut, run.stderr).toBe(false);
      console.log(`cline, hook that ${failure}: alone ${alone.elapsedMs} ms, with the proxy ${run.elapsedMs} ms`);
      const seen = everything(run);
      expect(toolMessageText(run.toolResults['call_links'])).toContain('uri.non-public-address');
      expect(seen).not.toContain(fixtureNamed.metadata.uri);
      expect(seen).not.toContain(fixtureNamed.tool.marker);
      expect(seen).toContain(fixtureNamed.note.marker);
    },
  );
});

// a hook that hangs (issue 43 item 3): Cline waits for a hook file 120 s (its fixed timeout, no setting moves it), then
// logs it and lets the call go on. One tool call, both hook files hanging: about 240 s per run; the two
// runs (hooks alone, the printed proxy) go side by side.
describe('cline with hook files that hang', () => {
  const hang = '#!/bin/sh\nexec sleep 600\n';
  test('cline lets the call and its result through after its timeout; with the printed proxy nothing refused is delivered', {
    timeout: 900_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-cline-');
    const requests = path.join(logs, 'requests.jsonl');
    const records = path.join(logs, 'records.jsonl');
    const script = [{ toolUses: [{ id: 'call_links', name: 'fixture__links', input: {} }] }, { text: 'done' }];
    const hanging = (files: Record<string, string>) => Object.fromEntries(Object.keys(files).map((n) => [n, hang]));

    // the printed set-up with the proxy in front of the server, run beside the hooks alone (each waits 240 s)
    const config = await printed(records, tsServerCommand());
    const proxy = (config['mcpServers'] as Record<string, { command: string; args: string[] }>)['fixture'];
    if (proxy === undefined) throw new Error('no proxy entry printed');
    const proxyRequests = path.join(logs, 'proxy-requests.jsonl');
    const [alone, run] = await Promise.all([
      // hooks alone: the task goes on past both hangs and the model reads the refused link
      printed(records).then((hooksAlone) =>
        runCline({
          mcpServers: { fixture: fixtureServer(requests) },
          hookFiles: hanging(hookFilesOf(hooksAlone)),
          prompt: 'list the links',
          script,
          timeoutMs: 400_000,
        }),
      ),
      runCline({
        mcpServers: { fixture: { ...proxy, env: { LINKGATE_REQUEST_LOG: proxyRequests } } },
        hookFiles: hanging(hookFilesOf(config)),
        prompt: 'list the links',
        script,
        timeoutMs: 400_000,
      }),
    ]);
    host.defer(() => alone.cleanup());
    host.defer(() => run.cleanup());
    expect(alone.timedOut, alone.stderr).toBe(false);
    expect(toolMessageText(alone.toolResults['call_links'])).toContain(fixtureNamed.metadata.uri);
    // both hook files were waited for, to Cline's timeout each
    expect(alone.elapsedMs).toBeGreaterThanOrEqual(2 * 120_000);
    expect(run.timedOut, run.stderr).toBe(false);
    console.log(`cline, hook that hangs: alone ${alone.elapsedMs} ms, with the proxy ${run.elapsedMs} ms`);
    expect(toolMessageText(run.toolResults['call_links'])).toContain('uri.non-public-address');
    expect(everything(run)).not.toContain(fixtureNamed.metadata.uri);
  });
});
