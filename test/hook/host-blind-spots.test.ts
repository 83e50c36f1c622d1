// Policy settings a host's hooks cannot enforce are named, never silently ignored (issue 39 item 2): Claude Code and
// Gemini CLI hand their hooks a link as text, so a declared size or type never reaches the hook, and on main
// `links.maxDeclaredBytes` and `denyDeclaredTypes` did nothing there without a word (a 50 MiB-declared link was read).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookBlindSpots } from '../../src/hook/host-blind-spots.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { runCli } from '../helpers/run-cli.ts';
import { readRequested } from './hook-events.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-blind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookBlindSpots', () => {
  it('names declared size and type for the hosts that flatten links, nothing for the others', async () => {
    const policy = await loadPolicy('policies/default.yaml');
    const settings = (host: Parameters<typeof hookBlindSpots>[0]) => hookBlindSpots(host, policy).map((s) => s.setting);
    expect(settings('claude-code')).toEqual(['links.maxDeclaredBytes', 'links.denyDeclaredTypes']);
    expect(settings('gemini-cli')).toEqual(['links.maxDeclaredBytes', 'links.denyDeclaredTypes']);
    expect(settings('codex')).toEqual([]);
    expect(settings('cursor')).toEqual([]);
    for (const spot of hookBlindSpots('claude-code', policy)) expect(spot.why).toMatch(/^claude code hands its hooks/);
  });

  it('a setting that is off is not named', async () => {
    const file = join(dir, 'no-types.yaml');
    const text = (await import('node:fs')).readFileSync('policies/default.yaml', 'utf8');
    writeFileSync(file, text.replace('denyDeclaredTypes: true', 'denyDeclaredTypes: false'));
    const policy = await loadPolicy(file);
    expect(hookBlindSpots('claude-code', policy).map((s) => s.setting)).toEqual(['links.maxDeclaredBytes']);
  });
});

describe('named on stderr', () => {
  const line =
    /^linkgate hook: not enforced by the claude-code hook: `links\.maxDeclaredBytes`, `links\.denyDeclaredTypes` \(.*\); linkgate proxy in front of the server enforces them$/m;

  it('at every run of the claude code hook, beside its answer', async () => {
    const args = ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
    const run = await runCli(args, JSON.stringify(readRequested('docs', 'guide://a')));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(line);
  });

  it('by --print-config', async () => {
    const run = await runCli(['hook', 'claude-code', '--print-config', '--policy', 'policies/default.yaml']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(line);
  });

  it('not for codex, whose hooks see the links as the server sent them', async () => {
    const run = await runCli(['hook', 'codex', '--print-config', '--policy', 'policies/default.yaml']);
    expect(run.stderr).not.toContain('not enforced');
  });
});
