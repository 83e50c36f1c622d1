// Doctor on a Claude Code set-up whose policy lies in a temporary folder the agent's shell may write (issue 39 item
// 6). Claude Code 2.1.332, read in its bundle: its sandbox always lets commands write `/tmp/claude` (and
// `/private/tmp/claude`) and gives them `TMPDIR` = `CLAUDE_CODE_TMPDIR` (or `CLAUDE_TMPDIR`), else `/tmp/claude`; its
// per-user temp folder, where commands' working and output files are kept, is `claude-<uid>` under
// `CLAUDE_CODE_TMPDIR`, else under the OS temp folder (`$TMPDIR`, else `/tmp`). Doctor named none of them: a policy
// there was called gated. Fails on main.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { agentWritableFolders } from '../../src/doctor/agent-writable.ts';
import { cliEntry } from '../../src/cli/package-root.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { defaultPolicy, doctorReport, plainServer, printedHook, useScratch, write } from './doctor-scratch.ts';

const scratch = useScratch('linkgate-doctor-claude-temp-');
const uid = process.getuid?.() ?? 0;

describe("doctor: Claude Code's temporary folders are folders the agent's shell may write", () => {
  test('the sandbox temp folder and the per-user temp folder are named', async () => {
    const { home, project } = scratch();
    const tmp = path.join(home, 'os-tmp');
    const folders = await agentWritableFolders('claude-code', { home, cwd: project, env: { TMPDIR: tmp } });
    const named = folders.map((f) => f.folder);
    expect(named).toContain('/tmp/claude');
    expect(named).toContain(path.join(tmp, `claude-${uid}`));
    const own = path.join(home, 'own-tmp');
    const moved = await agentWritableFolders('claude-code', {
      home,
      cwd: project,
      env: { TMPDIR: tmp, CLAUDE_CODE_TMPDIR: own },
    });
    expect(moved.map((f) => f.folder)).toEqual(expect.arrayContaining([own, path.join(own, `claude-${uid}`)]));
  });

  test('a policy in the per-user temp folder: not gated', async () => {
    const { home, project } = scratch();
    const own = path.join(home, 'own-tmp');
    const policy = path.join(own, `claude-${uid}`, 'linkgate.yaml');
    write(policy, readFileSync(defaultPolicy, 'utf8'));
    const argv = ['node', cliEntry(), 'hook', 'claude-code', '--policy', policy];
    const settings = hostSettings['claude-code'](argv.map(shellQuote).join(' ')) as Record<string, unknown>;
    const sandbox = { enabled: true, allowUnsandboxedCommands: false };
    write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox });
    write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
    const report = await doctorReport(home, project, { TMPDIR: own });
    const docs = report.servers.find((s) => s.name === 'docs');
    expect(docs?.state).toBe('not-gated');
    expect(docs?.problems.join('\n')).toContain("claude code's per-user temp folder");
  });

  test("the hook's state folder in the per-user temp folder: its memory of refusals is not held", async () => {
    const { home, project } = scratch();
    const own = path.join(home, 'own-tmp');
    const state = path.join(own, `claude-${uid}`, 'linkgate-state');
    const settings = hostSettings['claude-code'](printedHook('claude-code', '--state', state)) as Record<
      string,
      unknown
    >;
    const sandbox = { enabled: true, allowUnsandboxedCommands: false };
    write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox });
    const report = await doctorReport(home, project, { TMPDIR: own });
    const post = report.hooks.filter((h) => h.phase === 'post');
    expect(post.length).toBeGreaterThan(0);
    expect(post.flatMap((h) => h.warnings).join('\n')).toContain("claude code's per-user temp folder");
  });
});
