// doctor on Cline's files (issue 43 item 3): the servers of cline_mcp_settings.json, the hook files `--print-config`
// writes (each run for every tool, failing open), a hook file of another host, and `$CLINE_MCP_SETTINGS_PATH`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { runCli } from '../helpers/run-cli.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function write(file: string, text: string | object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof text === 'string' ? text : JSON.stringify(text), { mode: 0o755 });
}

async function printedHookFiles(): Promise<Record<string, string>> {
  const out = await runCli([
    'hook',
    'cline',
    '--print-config',
    '--policy',
    path.join(repoRoot, 'policies/default.yaml'),
  ]);
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { hookFiles: Record<string, string> }).hookFiles;
}

describe('doctor reads cline', () => {
  test('the printed hook files gate its servers, and fail open', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'linkgate-doctor-cline-'));
    dirs.push(home);
    const project = path.join(home, 'project');
    write(path.join(home, '.cline', 'data', 'settings', 'cline_mcp_settings.json'), {
      mcpServers: {
        docs: { command: 'node', args: ['s.js'] },
        off: { command: 'node', args: ['o.js'], disabled: true },
      },
    });
    for (const [name, text] of Object.entries(await printedHookFiles()))
      write(path.join(project, '.clinerules', 'hooks', name), text);
    const report = await runDoctor({ home, cwd: project, env: {} }, { startServers: false });
    expect(report.servers.map((s) => [s.host, s.name, s.state])).toEqual([
      ['cline', 'docs', 'partly-gated'],
      ['cline', 'off', 'disabled'],
    ]);
    expect(report.hooks.map((h) => [h.event, h.runs, h.failMode])).toEqual([
      ['PostToolUse', true, 'open'],
      ['PreToolUse', true, 'open'],
    ]);
    expect(report.hooks[0]?.warnings[0]).toContain('cline lets the call through');
  });

  test('a hook file running another host’s hook does not gate; the settings path follows the environment', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'linkgate-doctor-cline-'));
    dirs.push(home);
    const settings = path.join(home, 'elsewhere.json');
    write(settings, { mcpServers: { docs: { command: 'node', args: ['s.js'] } } });
    const codex = (await printedHookFiles())['PreToolUse']?.replace('hook cline', 'hook codex') ?? '';
    write(path.join(home, 'Documents', 'Cline', 'Hooks', 'PreToolUse.sh'), codex);
    const report = await runDoctor(
      { home, cwd: home, env: { CLINE_MCP_SETTINGS_PATH: settings } },
      { startServers: false },
    );
    expect(report.servers.map((s) => [s.name, s.file, s.gated])).toEqual([['docs', settings, false]]);
    expect(report.hooks[0]?.problems[0]).toBe('runs `linkgate hook codex` in cline: the event formats differ');
  });
});
