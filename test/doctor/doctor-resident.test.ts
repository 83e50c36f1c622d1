// Doctor and the resident hook (docs/resident-hook.md): Claude Code's HTTP hook to the resident server covers reads
// before they happen when every condition of the server holds, so a server with the printed set-up and no proxy is
// gated; where a condition does not hold the hook does not run and the gap is named. Doctor also says which set-up
// holds the server check against an agent that deletes the hook's state: a command hook before a read is warned about.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { ConfigPlaces } from '../../src/doctor/claude-code-config.ts';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import type { ResidentProbe } from '../../src/resident/resident-doctor.ts';
import { residentHandler, residentSettings } from '../../src/resident/resident-setup.ts';
import { useScratch, write } from './doctor-scratch.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const policy = path.join(repoRoot, 'policies', 'default.yaml');
const scratch = useScratch('linkgate-doctor-resident-');
const port = 873;

const hookCommand = (...options: string[]) =>
  ['node', cliEntry(), 'hook', 'claude-code', '--policy', policy, ...options].map(shellQuote).join(' ');
// the gated user (not root), a kernel whose first unprivileged port is 1024, a server socket that is root's
const holds: ResidentProbe = { gatedUid: 61234, portStart: () => 1024, listener: () => 0 };

function setUp(settings: unknown): ConfigPlaces & { settings: string } {
  const { home, project } = scratch();
  write(path.join(home, '.claude.json'), { mcpServers: { docs: { command: 'node', args: ['s.js'] } } });
  const file = path.join(home, '.claude', 'settings.json');
  write(file, settings as object);
  return { home, cwd: project, env: { HOME: home, PATH: process.env['PATH'] ?? '' }, settings: file };
}

const doctor = (places: ConfigPlaces, probe: ResidentProbe = holds, requireSigned = false) =>
  runDoctor({ ...places, residentProbe: probe }, { startServers: false, requireSigned });

const printed = () => residentSettings(hostSettings['claude-code'](hookCommand()), port);

describe('doctor counts the resident http hook as the hook before a read', () => {
  test('the printed set-up, with no proxy, gates the server; the http hook before a read is a hook that runs', async () => {
    const report = await doctor(setUp(printed()));
    const docs = report.servers.find((s) => s.name === 'docs');
    expect(docs?.problems).toEqual([]);
    expect([docs?.gate, docs?.state, docs?.failMode]).toEqual(['hook', 'gated', 'closed']);
    const pre = report.hooks.filter((h) => h.phase === 'pre');
    expect(pre.map((h) => [h.event, h.command, h.runs, h.failMode])).toEqual([
      ['PreToolUse', `http://127.0.0.1:${port}/claude-code`, true, 'closed'],
    ]);
    // the http hook after a tool ran keeps links only: it is no hook of its own, and nothing is wrong with it
    expect(report.hooks.filter((h) => h.command.startsWith('http'))).toHaveLength(1);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    // nothing says the server check rests on files the agent can delete
    expect(report.hooks.flatMap((h) => h.warnings).join('\n')).not.toContain('requireSameServer');
  });

  test('a condition that does not hold: the hook does not run and the gap before a read is named', async () => {
    const report = await doctor(setUp(printed()), { ...holds, listener: () => undefined });
    const docs = report.servers.find((s) => s.name === 'docs');
    expect(docs?.state).toBe('not-gated');
    expect(docs?.problems.join('\n')).toContain('no linkgate hook that runs sees its reads before they happen');
    expect(docs?.problems.join('\n')).toContain(`nothing listens on port ${port}`);
    const pre = report.hooks.find((h) => h.phase === 'pre');
    expect(pre?.runs).toBe(false);
    expect(report.ok).toBe(false);
    // the gated user's own socket on the port, a port it could bind, no `onFailure: "block"`
    for (const [probe, why] of [
      [{ ...holds, listener: () => holds.gatedUid }, 'held by the gated user'],
      [{ ...holds, portStart: () => 0 }, 'ip_unprivileged_port_start'],
    ] as const) {
      const again = await doctor(setUp(printed()), probe);
      expect(again.servers.find((s) => s.name === 'docs')?.state).toBe('not-gated');
      expect(again.hooks.find((h) => h.phase === 'pre')?.problems.join('\n')).toContain(why);
    }
    const settings = printed() as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> };
    const handler = settings.hooks['PreToolUse']?.[0]?.hooks[0] as Record<string, unknown>;
    handler['onFailure'] = 'continue';
    const open = await doctor(setUp(settings));
    expect(open.servers.find((s) => s.name === 'docs')?.state).toBe('not-gated');
  });

  test("with `--require-signed` the resident's policy, which doctor cannot see, does not count as checked", async () => {
    const report = await doctor(setUp(printed()), holds, true);
    const pre = report.hooks.find((h) => h.phase === 'pre');
    expect(pre?.runs).toBe(false);
    expect(pre?.problems.join('\n')).toContain("the resident server's policy is its own");
  });

  test('an http entry that also carries a `command` is the http hook it is typed as; a command entry with a `url` runs its command', async () => {
    const http: Record<string, unknown> = { ...residentHandler(port), command: hookCommand() };
    const settings = printed() as { hooks: Record<string, unknown> };
    settings.hooks['PreToolUse'] = [{ matcher: 'ReadMcpResourceTool|WebFetch', hooks: [http] }];
    const report = await doctor(setUp(settings));
    expect(report.hooks.filter((h) => h.phase === 'pre').map((h) => h.command)).toEqual([
      `http://127.0.0.1:${port}/claude-code`,
    ]);
    const command = { type: 'command', command: hookCommand(), timeout: 30, onFailure: 'block', url: http['url'] };
    settings.hooks['PreToolUse'] = [{ matcher: 'ReadMcpResourceTool|WebFetch', hooks: [command] }];
    const again = await doctor(setUp(settings));
    expect(again.hooks.filter((h) => h.phase === 'pre').map((h) => h.command)).toEqual([hookCommand()]);
  });
});

describe('doctor says which set-up holds the server check', () => {
  test('a resident hook before a read with no http hook after mcp tools is warned: the server learns no link', async () => {
    const settings = printed() as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> };
    settings.hooks['PostToolUse'] = (settings.hooks['PostToolUse'] ?? []).filter((g) =>
      g.hooks.every((h) => h['type'] !== 'http'),
    );
    const report = await doctor(setUp(settings));
    const pre = report.hooks.find((h) => h.phase === 'pre');
    expect(pre?.runs).toBe(true);
    expect(pre?.warnings.join('\n')).toContain('the server never learns which server returned a link');
    // the printed set-up has it: no such warning
    const printedReport = await doctor(setUp(printed()));
    expect(printedReport.hooks.flatMap((h) => h.warnings).join('\n')).not.toContain('never learns');
  });

  test('a command hook before a read, under the default policy, is warned: its state folder is the agent’s', async () => {
    const report = await doctor(setUp(hostSettings['claude-code'](hookCommand())));
    const pre = report.hooks.find((h) => h.phase === 'pre');
    expect(pre?.warnings.join('\n')).toMatch(/`links.requireSameServer` rests on the hook's state folder/);
    expect(pre?.warnings.join('\n')).toContain('resident hook');
    // the hooks after a tool ran decide nothing before a read: no such warning
    for (const h of report.hooks.filter((h) => h.phase !== 'pre'))
      expect(h.warnings.join('\n')).not.toContain('requireSameServer');
    // a policy with `hook.requireDiscovered: true` holds it: no warning
    const strict = path.join(repoRoot, 'policies', 'strict.yaml');
    const strictCommand = ['node', cliEntry(), 'hook', 'claude-code', '--policy', strict].map(shellQuote).join(' ');
    const held = await doctor(setUp(hostSettings['claude-code'](strictCommand)));
    expect(held.hooks.flatMap((h) => h.warnings).join('\n')).not.toContain('requireSameServer');
  });
});
