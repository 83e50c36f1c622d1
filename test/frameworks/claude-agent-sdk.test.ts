// linkgate's in-process hooks inside the real Claude Agent SDK: the SDK's `query()` with its bundled Claude Code, run
// offline against the scripted Messages API, the hostile server and server-everything. What the servers were asked,
// what the model received next and what the records say are all checked; a broken policy path must fail closed
// although the SDK's own default for a failing hook is to let the action go ahead.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';
import { jsonLinesSink } from '../../src/record/record-sink.ts';
import { linkRecordLines } from '../helpers/run-cli.ts';
import { claudeCodeEnv } from '../real-host/claude-code.ts';
import { serverReads, tsServerCommand } from '../real-host/fixture-process.ts';
import { type ScriptStep, startModelApi, toolResultsOf } from '../real-host/model-api.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { hostileLink, hostileLinks } from './hostile-resources.ts';

const sdkSpec = realFrameworks.claudeAgentSdk;
const suite = frameworkSuite('the claude agent sdk', sdkSpec);
const hostileServerFile = path.join(import.meta.dirname, 'hostile-server.ts');
const everythingServer = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

interface AgentSdk {
  query(args: { prompt: string; options: Record<string, unknown> }): AsyncIterable<Record<string, unknown>>;
}

interface AgentRun {
  /** the last message of the query (`type: 'result'`) */
  result: Record<string, unknown> | undefined;
  toolResults: ReturnType<typeof toolResultsOf>;
  /** every request body that reached the model, as one JSON text */
  everything: string;
  requestLog: string;
}

async function runAgent(sdkDir: string, dir: string, hooks: unknown, script: readonly ScriptStep[]): Promise<AgentRun> {
  const sdk = await importFrom<AgentSdk>(sdkDir, '@anthropic-ai/claude-agent-sdk');
  const [home, work, tmp] = ['home', 'work', 'tmp'].map((d) => path.join(dir, d)) as [string, string, string];
  await Promise.all([home, work, tmp].map((d) => mkdir(d, { recursive: true })));
  const requestLog = path.join(dir, 'requests.jsonl');
  const model = await startModelApi(script);
  const [command, ...args] = tsServerCommand(hostileServerFile);
  try {
    let result: Record<string, unknown> | undefined;
    const stderr: string[] = [];
    for await (const message of sdk.query({
      prompt: 'read every link the hostile server returns',
      options: {
        cwd: work,
        env: claudeCodeEnv(model.url, home, tmp),
        mcpServers: {
          hostile: { type: 'stdio', command, args, env: { LINKGATE_REQUEST_LOG: requestLog } },
          everything: { type: 'stdio', command: process.execPath, args: [everythingServer, 'stdio'] },
        },
        allowedTools: ['mcp__hostile__links', 'mcp__everything__get-resource-links', 'ReadMcpResourceTool'],
        settingSources: [],
        hooks,
        stderr: (data: string) => stderr.push(data),
      },
    }))
      if (message['type'] === 'result') result = message;
    return {
      result,
      toolResults: toolResultsOf(model.requests),
      everything: JSON.stringify(model.requests.map((r) => r.body)),
      requestLog,
    };
  } finally {
    await model.close();
  }
}

const read = (id: string, server: string, uri: string): ScriptStep => ({
  toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server, uri } }],
});

const script: ScriptStep[] = [
  { toolUses: [{ id: 'toolu_links', name: 'mcp__hostile__links', input: {} }] },
  ...hostileLinks.map((r) => read(`toolu_${r.key}`, 'hostile', r.uri)),
  { toolUses: [{ id: 'toolu_everything', name: 'mcp__everything__get-resource-links', input: { count: 1 } }] },
  read('toolu_everything_read', 'everything', 'demo://resource/static/document/architecture.md'),
  { text: 'all read' },
];

describe('claudeAgentHooks inside the real Claude Agent SDK', () => {
  test('refused links are never read, withheld bodies never reach the model, the README does, with records', {
    timeout: 240_000,
  }, async (ctx) => {
    const sdkDir = suite.require(ctx);
    const dir = await suite.scratch('linkgate-agent-sdk-');
    const recordsFile = path.join(dir, 'records.jsonl');
    const records = jsonLinesSink(recordsFile);
    // the session state in memory, the default
    const hooks = claudeAgentHooks({ policy: await loadPolicy('policies/default.yaml'), records });
    const run = await runAgent(sdkDir, dir, hooks, script);
    // the query ended: the links listed and never read get their last records
    await hooks.flush();
    await records.close();
    expect(run.result?.['subtype'], JSON.stringify(run.result)).toBe('success');
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);

    // the metadata and file: links were refused before the read: the server was never asked for them
    const reads = await serverReads(run.requestLog);
    expect(reads).toEqual(['readme', 'elf', 'html'].map((k) => hostileLink(k).uri));
    expect(text('toolu_metadata')).toContain('uri.non-public-address');
    expect(text('toolu_file')).toMatch(/linkgate/);
    // the README reached the model; the ELF labelled image/png and the HTML page with script did not
    expect(run.everything).toContain(hostileLink('readme').marker);
    for (const key of ['metadata', 'file', 'elf', 'html'])
      expect(run.everything).not.toContain(hostileLink(key).marker);
    expect(text('toolu_elf')).toContain('content.executable');
    expect(text('toolu_html')).toMatch(/linkgate withheld/);
    // server-everything's document is an allowed read
    expect(text('toolu_everything_read')).toContain('architecture');

    // one record per read, written in the host process, naming the SDK as the host
    const written = linkRecordLines(await readFile(recordsFile, 'utf8')) as LinkRecord[];
    const verdicts = Object.fromEntries(written.map((r) => [r.uri, r.verdict]));
    expect(verdicts).toMatchObject({
      [hostileLink('readme').uri]: 'body-obtained',
      [hostileLink('elf').uri]: 'link-only',
      [hostileLink('html').uri]: expect.stringMatching(/^(link-only|partially-interpreted)$/),
      'demo://resource/static/document/architecture.md': 'body-obtained',
    });
    // the refused links: recorded, never requested
    for (const key of ['metadata', 'file']) {
      const refused = written.filter((r) => r.uri === hostileLink(key).uri);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) expect([r.verdict, r.stages.requested]).toEqual(['link-only', null]);
    }
    for (const r of written) expect(r.host).toMatchObject({ name: 'claude-agent-sdk' });
    // one record per link: each link a tool listed has its discovery record, and every link one finished record,
    // a link listed and never read (server-everything's) too, written by flush
    const all = (await readFile(recordsFile, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LinkRecord & { kind?: string });
    const listed = all.filter((r) => recordKindOf(r) === 'discovered').map((r) => r.uri);
    for (const r of hostileLinks) expect(listed).toContain(r.uri);
    const unread = listed.filter((uri) => uri.startsWith('demo://'));
    expect(unread.length).toBeGreaterThan(0);
    expect(written.map((r) => r.uri).sort()).toEqual(
      [...new Set([...listed, 'demo://resource/static/document/architecture.md'])].sort(),
    );
    for (const uri of unread)
      if (uri !== 'demo://resource/static/document/architecture.md')
        expect(written.find((r) => r.uri === uri)).toMatchObject({ verdict: 'link-only', stages: { requested: null } });
  });

  test('the read tool (ReadMcpResourceTool) reads only links a tool returned, through the gate, with hook.requireDiscovered', {
    timeout: 240_000,
  }, async (ctx) => {
    const sdkDir = suite.require(ctx);
    const dir = await suite.scratch('linkgate-agent-sdk-read-');
    const policyFile = path.join(dir, 'policy.yaml');
    const defaultPolicy = await readFile('policies/default.yaml', 'utf8');
    await writeFile(policyFile, defaultPolicy.replace('requireDiscovered: false', 'requireDiscovered: true'));
    const records = jsonLinesSink(path.join(dir, 'records.jsonl'));
    const hooks = claudeAgentHooks({ policy: policyFile, records });
    const undiscovered = 'hostile://docs/never-returned.md';
    const run = await runAgent(sdkDir, dir, hooks, [
      read('toolu_early', 'hostile', hostileLink('readme').uri),
      { toolUses: [{ id: 'toolu_links', name: 'mcp__hostile__links', input: {} }] },
      ...hostileLinks.map((r) => read(`toolu_${r.key}`, 'hostile', r.uri)),
      read('toolu_undiscovered', 'hostile', undiscovered),
      { text: 'all read' },
    ]);
    await records.close();
    expect(run.result?.['subtype'], JSON.stringify(run.result)).toBe('success');
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
    // the server was asked only for the links the tool passed on, after it ran
    expect(await serverReads(run.requestLog)).toEqual(['readme', 'elf', 'html'].map((k) => hostileLink(k).uri));
    for (const id of ['toolu_early', 'toolu_undiscovered']) expect(text(id)).toContain('link.not-discovered');
    expect(text('toolu_readme')).toContain(hostileLink('readme').marker);
    expect(text('toolu_metadata')).toContain('uri.non-public-address');
    expect(text('toolu_elf')).toContain('content.executable');
    for (const key of ['metadata', 'file', 'elf', 'html'])
      expect(run.everything).not.toContain(hostileLink(key).marker);
  });

  test('a broken policy path fails closed: no read happens, no body is delivered', {
    timeout: 240_000,
  }, async (ctx) => {
    const sdkDir = suite.require(ctx);
    const dir = await suite.scratch('linkgate-agent-sdk-broken-');
    const records = jsonLinesSink(path.join(dir, 'records.jsonl'));
    const hooks = claudeAgentHooks({
      policy: path.join(dir, 'no-such-policy.yaml'),
      records,
      stateDir: path.join(dir, 'state'),
    });
    const run = await runAgent(sdkDir, dir, hooks, script);
    await records.close();
    expect(await serverReads(run.requestLog)).toEqual([]);
    for (const r of hostileLinks) expect(run.everything).not.toContain(r.marker);
    expect(JSON.stringify(run.toolResults['toolu_readme'])).toMatch(/linkgate blocked this call: the hook failed/);
    // every call the gate would have judged was blocked, the tool that returns the links too
    expect(JSON.stringify(run.toolResults['toolu_links'])).toMatch(/linkgate blocked this call: the hook failed/);
    expect(run.toolResults['toolu_links']?.is_error).toBe(true);
  });
});
