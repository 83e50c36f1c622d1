// `linkgate hook copilot-cli` on the camelCase `preToolUse` events Copilot CLI 1.0.102 sends (recorded from the real
// binary: `{sessionId, timestamp, cwd, toolName, toolArgs}`), its print-config, and doctor on its files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { copilotCliHost } from '../../src/hook/copilot-cli-host.ts';
import { runCli } from '../helpers/run-cli.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-copilot-'));
  dirs.push(dir);
  return dir;
}

const pre = (toolName: string, toolArgs: unknown) => ({
  sessionId: 'a734f4df-ce05-4589-8e93-7f8b1d8f92b3',
  timestamp: 1796458597539,
  cwd: '/tmp/work',
  toolName,
  toolArgs,
});

async function hook(event: unknown, policy = 'policies/default.yaml') {
  return runCli(
    ['hook', 'copilot-cli', '--policy', policy, '--state', path.join(scratch(), 'state')],
    JSON.stringify(event),
  );
}

describe('linkgate hook copilot-cli', () => {
  it('refuses a web_fetch of a refused url with permissionDecision deny, the reason naming no credentials', async () => {
    const run = await hook(pre('web_fetch', { url: 'https://reader:s3cret@docs.example.com/guide' }));
    const answer = JSON.parse(run.stdout) as { permissionDecision: string; permissionDecisionReason: string };
    expect(answer.permissionDecision).toBe('deny');
    expect(answer.permissionDecisionReason).toContain('uri.userinfo');
    expect(answer.permissionDecisionReason).not.toContain('s3cret');
  });

  it('says nothing for an allowed fetch, an MCP tool or a post event', async () => {
    expect(await hook(pre('web_fetch', { url: 'https://docs.example.com/guide' }))).toMatchObject({
      code: 0,
      stdout: '',
    });
    expect(await hook(pre('fixture-links', {}))).toMatchObject({ code: 0, stdout: '' });
    const post = { ...pre('fixture-links', {}), toolResult: { resultType: 'success', textResultForLlm: '5 links' } };
    expect(copilotCliHost.parse(post)).toBeNull();
  });

  it('answers deny, not an exit code copilot would skip, when it cannot judge the event', async () => {
    const broken = path.join(scratch(), 'broken.yaml');
    writeFileSync(broken, 'id: [unclosed\n');
    const run = await hook(pre('web_fetch', { url: 'https://docs.example.com/' }), broken);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ permissionDecision: 'deny' });
  });

  it('prints a version 1 hooks file with one preToolUse command hook', async () => {
    const out = await runCli(['hook', 'copilot-cli', '--print-config']);
    const config = JSON.parse(out.stdout) as {
      version: number;
      hooks: Record<string, { type: string; bash: string; timeoutSec: number }[]>;
    };
    expect(config.version).toBe(1);
    expect(Object.keys(config.hooks)).toEqual(['preToolUse']);
    expect(config.hooks['preToolUse']?.[0]).toMatchObject({ type: 'command', timeoutSec: 30 });
    expect(config.hooks['preToolUse']?.[0]?.bash).toContain('hook copilot-cli');
    expect(out.stderr).toContain('cannot withhold a result');
  });

  it('doctor: a server behind the hook alone is not gated (no hook sees its results); the hook fails open', async () => {
    const home = scratch();
    const project = path.join(home, 'project');
    mkdirSync(path.join(home, '.copilot'), { recursive: true });
    writeFileSync(
      path.join(home, '.copilot', 'mcp-config.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['s.js'] } } }),
    );
    const printed = await runCli(['hook', 'copilot-cli', '--print-config']);
    mkdirSync(path.join(project, '.github', 'hooks'), { recursive: true });
    writeFileSync(path.join(project, '.github', 'hooks', 'linkgate.json'), printed.stdout);
    const report = await runDoctor({ home, cwd: project, env: {} }, { startServers: false });
    expect(report.servers.map((s) => [s.host, s.name, s.gated])).toEqual([['copilot-cli', 'docs', false]]);
    expect(report.servers[0]?.problems).toContain('no linkgate hook that runs sees its tool results');
    expect(report.hooks.map((h) => [h.event, h.runs, h.failMode])).toEqual([['preToolUse', true, 'open']]);
  });
});
