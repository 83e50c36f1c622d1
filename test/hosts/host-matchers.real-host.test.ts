// src/hosts/ against the real binaries: each host runs one session with many hook groups, one per matcher, each
// recording the events the host gave it; the tools each group fired for must be exactly the tools the host's
// description (`matcherCovers`, `tools.mcpTool`) says it covers. And Claude Code's `disableAllHooks` across settings
// layers: the hooks run exactly when `claudeCodeHooksDisabledBy` says they do.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { claudeCode, claudeCodeHooksDisabledBy } from '../../src/hosts/claude-code.ts';
import type { HostDescription } from '../../src/hosts/host-description.ts';
import { hostDescriptions } from '../../src/hosts/hosts.ts';
import { claudeCodeEnv, installClaudeCode, recordedEvents, recorderCommand } from '../real-host/claude-code.ts';
import { installCodexCli, runCodexCli } from '../real-host/codex-cli.ts';
import { fixtureServer } from '../real-host/fixture-process.ts';
import { fixtureNamed } from '../real-host/fixture-resources.ts';
import { installGeminiCli, runGeminiCli } from '../real-host/gemini-cli.ts';
import { runHost } from '../real-host/host-run.ts';
import { realHostSuite } from '../real-host/host-suite.ts';
import { toolResultsOf } from '../real-host/model-api.ts';

const { readme } = fixtureNamed;

// one group per matcher on the pre-tool event, each recording to its own file
function groups(dir: string, event: string, matchers: readonly string[], timeout: number) {
  const logs = matchers.map((_, i) => path.join(dir, `matcher-${i}.jsonl`));
  const hooks = {
    [event]: matchers.map((matcher, i) => ({
      matcher,
      hooks: [{ type: 'command', command: recorderCommand(logs[i] ?? ''), timeout }],
    })),
  };
  return { hooks, logs };
}

async function firedFor(logs: readonly string[]): Promise<string[][]> {
  return Promise.all(
    logs.map(async (log) => [...new Set((await recordedEvents(log)).map((e) => String(e['tool_name'])))].sort()),
  );
}

function expected(host: HostDescription, matchers: readonly string[], called: readonly string[]): string[][] {
  return matchers.map((m) => called.filter((t) => host.matcherCovers(m, t)).sort());
}

describe('each host fires a hook group for exactly the tools its description says the matcher covers', () => {
  const claude = realHostSuite('claude code', () => installClaudeCode());
  const codexSuite = realHostSuite('codex cli', () => installCodexCli());
  const gemini = realHostSuite('gemini cli', () => installGeminiCli());

  test('claude code', { timeout: 240_000 }, async (ctx) => {
    const bin = claude.require(ctx);
    const dir = await claude.scratch('linkgate-hosts-claude-');
    const links = claudeCode.tools.mcpTool('fixture', 'links');
    const matchers = [
      'mcp__fixture',
      links,
      'mcp__fixture__.*',
      'ReadMcpResourceTool, mcp__fixture__links',
      'mcp__fixture__l',
      '^mcp__fixture__l',
      'Read',
      'Read.*Tool',
      '*',
    ];
    const { hooks, logs } = groups(dir, 'PreToolUse', matchers, 30);
    const run = await runHost({
      prefix: 'linkgate-hosts-claude-run-',
      toolResultsOf,
      script: [
        { toolUses: [{ id: 'toolu_links', name: links, input: {} }] },
        {
          toolUses: [{ id: 'toolu_read', name: 'ReadMcpResourceTool', input: { server: 'fixture', uri: readme.uri } }],
        },
        { text: 'done' },
      ],
      async prepare({ dir: runDir, home, tmp }, modelUrl) {
        const mcp = path.join(runDir, 'mcp.json');
        await writeFile(mcp, JSON.stringify({ mcpServers: { fixture: fixtureServer(path.join(dir, 'req.jsonl')) } }));
        await mkdir(path.join(home, '.claude'), { recursive: true });
        await writeFile(path.join(home, '.claude', 'settings.json'), JSON.stringify({ hooks }));
        const args = ['-p', 'go', '--mcp-config', mcp, '--strict-mcp-config'];
        args.push('--allowedTools', `${links},ReadMcpResourceTool`, '--output-format', 'stream-json', '--verbose');
        return { file: bin, args, env: claudeCodeEnv(modelUrl, home, tmp) };
      },
    });
    claude.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await firedFor(logs)).toEqual(expected(claudeCode, matchers, [links, 'ReadMcpResourceTool']));
  });

  test('codex cli', { timeout: 240_000 }, async (ctx) => {
    codexSuite.require(ctx);
    const dir = await codexSuite.scratch('linkgate-hosts-codex-');
    const host = hostDescriptions.codex;
    const links = host.tools.mcpTool('fixture', 'links');
    const matchers = [
      'mcp__fixture',
      links,
      'mcp__fixture__.*',
      '^mcp__fixture',
      `read_mcp_resource|${links}`,
      'read_mcp',
      'read_mcp.',
      '*',
    ];
    const { hooks, logs } = groups(dir, 'PreToolUse', matchers, 30);
    const run = await runCodexCli({
      mcpServers: { fixture: fixtureServer(path.join(dir, 'req.jsonl')) },
      hooks: { hooks },
      prompt: 'go',
      script: [
        { toolUses: [{ id: 'call_links', name: links, input: {} }] },
        { toolUses: [{ id: 'call_read', name: 'read_mcp_resource', input: { server: 'fixture', uri: readme.uri } }] },
        { text: 'done' },
      ],
      timeoutMs: 120_000,
    });
    codexSuite.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await firedFor(logs)).toEqual(expected(host, matchers, [links, 'read_mcp_resource']));
  });

  test('gemini cli', { timeout: 300_000 }, async (ctx) => {
    gemini.require(ctx);
    const dir = await gemini.scratch('linkgate-hosts-gemini-');
    const host = hostDescriptions['gemini-cli'];
    const links = host.tools.mcpTool('fixture', 'links');
    const matchers = ['mcp_fixture', `^${links}$`, 'read_mcp_resource', 'read_mcp', ' read_mcp_resource ', '(', '*'];
    const { hooks, logs } = groups(dir, 'BeforeTool', matchers, 30_000);
    const run = await runGeminiCli({
      mcpServers: { fixture: fixtureServer(path.join(dir, 'req.jsonl')) },
      settings: { hooks },
      prompt: 'go',
      script: [
        { toolUses: [{ id: 'call_links', name: links, input: {} }] },
        { toolUses: [{ id: 'call_read', name: 'read_mcp_resource', input: { uri: readme.uri } }] },
        { text: 'done' },
      ],
      timeoutMs: 240_000,
    });
    gemini.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await firedFor(logs)).toEqual(expected(host, matchers, [links, 'read_mcp_resource']));
  });
});

describe('claude code: `disableAllHooks` across its settings layers', () => {
  const claude = realHostSuite('claude code', () => installClaudeCode());

  test.for([
    ['user true, local false', { disableAllHooks: true }, { disableAllHooks: false }],
    ['user hooks, local true', {}, { disableAllHooks: true }],
    ['user true, project false', { disableAllHooks: true }, undefined],
  ] as const)(
    '%s: the hooks run exactly when the description says',
    { timeout: 240_000 },
    async ([label, user, local], ctx) => {
      const bin = claude.require(ctx);
      const dir = await claude.scratch('linkgate-hosts-disable-');
      const log = path.join(dir, 'events.jsonl');
      const links = claudeCode.tools.mcpTool('fixture', 'links');
      const layers: { file: string; settings: Record<string, unknown> }[] = [];
      const run = await runHost({
        prefix: 'linkgate-hosts-disable-run-',
        toolResultsOf,
        script: [{ toolUses: [{ id: 'toolu_links', name: links, input: {} }] }, { text: 'done' }],
        async prepare({ dir: runDir, home, work, tmp }, modelUrl) {
          const mcp = path.join(runDir, 'mcp.json');
          await writeFile(mcp, JSON.stringify({ mcpServers: { fixture: fixtureServer(path.join(dir, 'req.jsonl')) } }));
          const write = async (file: string, settings: Record<string, unknown>) => {
            await mkdir(path.dirname(file), { recursive: true });
            await writeFile(file, JSON.stringify(settings));
            layers.push({ file, settings });
          };
          await write(path.join(home, '.claude', 'settings.json'), {
            ...user,
            hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: recorderCommand(log) }] }] },
          });
          if (local !== undefined) await write(path.join(work, '.claude', 'settings.local.json'), local);
          else await write(path.join(work, '.claude', 'settings.json'), { disableAllHooks: false });
          const args = ['-p', 'go', '--mcp-config', mcp, '--strict-mcp-config', '--allowedTools', links];
          args.push('--output-format', 'stream-json', '--verbose');
          return { file: bin, args, env: claudeCodeEnv(modelUrl, home, tmp) };
        },
      });
      claude.defer(() => run.cleanup());
      expect(run.exitCode, run.stderr).toBe(0);
      const ran = (await recordedEvents(log)).length > 0;
      console.log(`claude code disableAllHooks ${label}: hooks ran ${ran}`);
      expect(ran).toBe(claudeCodeHooksDisabledBy(layers) === undefined);
    },
  );
});
