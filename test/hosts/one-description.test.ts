// Issue 40 item 1: `--print-config`, the hook's event parsing and doctor's check all read one description per host.
// Renaming Claude Code's pre-read event and read tool in its description (src/hosts/claude-code.ts) moves all of
// them, and the Claude Agent SDK hooks, at once; put back, they all follow back.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { hookCommand } from '../../src/cli/hook-command.ts';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { claudeCode } from '../../src/hosts/claude-code.ts';
import type { HookPhase, HostTools } from '../../src/hosts/host-description.ts';
import { memorySink } from '../../src/testing/index.ts';
import { runCommand } from '../helpers/run-cli.ts';

const policy = path.resolve(import.meta.dirname, '../../policies/default.yaml');
const dirs: string[] = [];
const mutable = claudeCode as { events: Readonly<Record<string, HookPhase>>; tools: HostTools };
const original = { events: claudeCode.events, tools: claudeCode.tools };
afterEach(() => {
  mutable.events = original.events;
  mutable.tools = original.tools;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-one-description-'));
  dirs.push(dir);
  return dir;
}

async function printConfig(): Promise<{ hooks: Record<string, { matcher?: string }[]> }> {
  const run = await runCommand(hookCommand, ['claude-code', '--print-config', '--policy', policy]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { hooks: Record<string, { matcher?: string }[]> };
}

async function hookAnswer(state: string, event: string, tool: string): Promise<string> {
  const stdin = JSON.stringify({
    hook_event_name: event,
    session_id: 's1',
    tool_use_id: 't1',
    tool_name: tool,
    tool_input: { server: 'docs', uri: 'http://127.0.0.1/secret' },
  });
  const run = await runCommand(hookCommand, ['claude-code', '--policy', policy, '--state', state], { stdin });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

async function doctorState(home: string, settings: unknown): Promise<string | undefined> {
  const project = path.join(home, 'project');
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(
    path.join(home, '.claude.json'),
    JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['s.js'] } } }),
  );
  // with Claude Code's sandbox keeping the agent's shell out of the hook's state folder: hooks alone are then gated,
  // not partly gated (doctor-refusal-memory.test.ts)
  const sandbox = { enabled: true, allowUnsandboxedCommands: false };
  writeFileSync(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({ ...(settings as Record<string, unknown>), sandbox }),
  );
  const report = await runDoctor(
    { home, cwd: project, env: { HOME: home, PATH: process.env['PATH'] ?? '' } },
    { startServers: false },
  );
  return report.servers.find((s) => s.host === 'claude-code' && s.name === 'docs')?.state;
}

describe('one description of claude code, read by every command', () => {
  test('renaming its pre event and read tool moves --print-config, the hook, doctor and the agent sdk hooks', async () => {
    const before = await printConfig();
    expect(Object.keys(before.hooks)).toContain('PreToolUse');

    mutable.events = { PreToolCall: 'pre', PostToolUse: 'post', PostToolUseFailure: 'failure' };
    mutable.tools = { ...original.tools, read: 'ReadResourceX' };

    // --print-config writes the renamed event, with matchers over the renamed tool
    const printed = await printConfig();
    expect(Object.keys(printed.hooks).sort()).toEqual(['PostToolUse', 'PostToolUseFailure', 'PreToolCall']);
    expect(printed.hooks['PreToolCall']?.[0]?.matcher).toBe('ReadResourceX|WebFetch');
    expect(printed.hooks['PostToolUse']?.[0]?.matcher?.split('|')).toContain('ReadResourceX');

    // the hook parses the renamed event and tool, and answers in the renamed event's name; the old names are no read
    const state = scratch();
    const denied = JSON.parse(await hookAnswer(state, 'PreToolCall', 'ReadResourceX')) as Record<string, unknown>;
    expect(denied).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolCall', permissionDecision: 'deny' } });
    expect(await hookAnswer(state, 'PreToolUse', 'ReadResourceX')).toBe('');
    expect(await hookAnswer(state, 'PreToolCall', 'ReadMcpResourceTool')).toBe('');

    // doctor reads the renamed event's handlers and judges them against the renamed tool
    expect(await doctorState(scratch(), printed)).toBe('gated');
    // the agent sdk hooks register for the renamed event
    expect(Object.keys(claudeAgentHooks({ policy, records: memorySink() })).sort()).toEqual(
      Object.keys(printed.hooks).sort(),
    );

    // put back: the settings printed under the renamed description gate nothing, the first ones gate again
    mutable.events = original.events;
    mutable.tools = original.tools;
    expect(await doctorState(scratch(), printed)).toBe('not-gated');
    expect(await doctorState(scratch(), before)).toBe('gated');
  });
});
