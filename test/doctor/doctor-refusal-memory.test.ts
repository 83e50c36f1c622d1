// Doctor on the hook's memory of refusals across events (issue 39, red team round 8 files): the hook keeps what a
// session refused in its state folder, which the gated agent (the same user) can delete, empty or roll back with its
// shell tool, so a later tool result naming a refused address is handed on (test/redteam/round8-files.test.ts). That
// memory holds only where the host's sandbox keeps the agent's shell out of the folder; doctor reads the sandbox setting
// of Claude Code (`sandbox.enabled`, `sandbox.allowUnsandboxedCommands`) and Codex (`sandbox_mode`, its writable roots)
// and says so on each hook that sees tool results, unless the sandbox holds it.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { type DoctorReport, doctorHosts } from '../../src/doctor/doctor-report.ts';
import { refusalMemoryNotHeld } from '../../src/doctor/refusal-memory.ts';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { doctorReport, plainServer, printedHook, serverStates, useScratch, write } from './doctor-scratch.ts';

const scratch = useScratch('linkgate-doctor-memory-');
const notHeld = "the hook's memory of refusals across events is not held";

/** The memory lines of the report's hooks that see tool results (and that there is such a hook). */
function memoryLines(report: DoctorReport): string[] {
  const post = report.hooks.filter((h) => h.phase === 'post');
  expect(post.length).toBeGreaterThan(0);
  return post.flatMap((h) => h.warnings.filter((w) => w.startsWith(notHeld)));
}

describe("doctor: the hook's memory of refusals, by the host's sandbox", () => {
  const claude = async (sandbox: object | undefined, ...options: string[]) => {
    const { home, project } = scratch();
    const settings = hostSettings['claude-code'](printedHook('claude-code', ...options)) as Record<string, unknown>;
    write(path.join(home, '.claude', 'settings.json'), sandbox === undefined ? settings : { ...settings, sandbox });
    return memoryLines(await doctorReport(home, project));
  };

  test('claude code without its sandbox: not held, and the proxy named', async () => {
    const lines = await claude(undefined);
    expect(lines).toEqual([expect.stringContaining("claude code's sandbox is off")]);
    expect(lines[0]).toContain('`linkgate proxy`');
  });

  test('claude code with its sandbox that lets commands out of it: not held', async () => {
    expect(await claude({ enabled: true })).toEqual([expect.stringContaining('allowUnsandboxedCommands')]);
  });

  test('claude code with its sandbox and no command outside it: held', async () => {
    expect(await claude({ enabled: true, allowUnsandboxedCommands: false })).toEqual([]);
  });

  test("claude code's managed settings count: their sandbox holds it, their excluded commands open it", async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](printedHook('claude-code')));
    const managed = path.join(home, 'managed', 'managed-settings.json');
    write(managed, { sandbox: { enabled: true, allowUnsandboxedCommands: false } });
    expect(memoryLines(await doctorReport(home, project))).toEqual([]);
    write(path.join(home, 'managed', 'managed-settings.d', '10-git.json'), { sandbox: { excludedCommands: ['git'] } });
    expect(memoryLines(await doctorReport(home, project))).toEqual([
      expect.stringContaining('`git` outside its sandbox'),
    ]);
  });

  test('claude code with its sandbox but the state folder inside the project: not held', async () => {
    expect(await claude({ enabled: true, allowUnsandboxedCommands: false }, '--state', 'hook-state')).toEqual([
      expect.stringContaining('inside the project'),
    ]);
  });

  const codex = async (config: string) => {
    const { home, project } = scratch();
    write(path.join(home, '.codex', 'hooks.json'), hostSettings.codex(printedHook('codex')));
    write(path.join(home, '.codex', 'config.toml'), config);
    return memoryLines(await doctorReport(home, project));
  };

  test('codex without `sandbox_mode`, and with `danger-full-access`: not held', async () => {
    expect(await codex('')).toEqual([expect.stringContaining('`sandbox_mode` is not set')]);
    expect(await codex('sandbox_mode = "danger-full-access"\n')).toEqual([
      expect.stringContaining('`danger-full-access`'),
    ]);
  });

  test('codex `read-only`: held', async () => {
    expect(await codex('sandbox_mode = "read-only"\n')).toEqual([]);
  });

  test('codex `workspace-write`: held unless the state folder is in a root it lets the shell write', async () => {
    // the scratch home (and so the default state folder) is in the temporary folder, which workspace-write lets the
    // shell write unless told not to
    expect(await codex('sandbox_mode = "workspace-write"\n')).toEqual([
      expect.stringContaining("which codex's `workspace-write` sandbox lets the agent's shell write"),
    ]);
    expect(
      await codex(
        'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n',
      ),
    ).toEqual([]);
  });
});

// issue 39: a set-up whose refusal memory is not held is not called gated. The hooks still judge each event, so the
// server is `partly-gated` (not `gated`, exit 1), and its problem names what is not held and the fix: the printed
// proxy beside the hooks, or the host's sandbox where it has one.
describe('doctor: hooks alone whose refusal memory is not held are partly gated, not gated', () => {
  const hooked = async (host: 'claude-code' | 'gemini-cli', extra: object = {}) => {
    const { home, project } = scratch();
    const settings = hostSettings[host](printedHook(host)) as Record<string, unknown>;
    if (host === 'claude-code') {
      write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
      write(path.join(home, '.claude', 'settings.json'), { ...settings, ...extra });
    } else {
      write(path.join(home, '.gemini', 'settings.json'), { mcpServers: { docs: plainServer }, ...settings });
      write(path.join(home, '.gemini', 'trustedFolders.json'), { [project]: 'TRUST_FOLDER' });
    }
    return doctorReport(home, project, {}, ['--no-start']);
  };

  test('claude code without its sandbox: partly gated, the run fails, the fix is named', async () => {
    const report = await hooked('claude-code');
    expect(serverStates(report)).toEqual([['claude-code', 'docs', 'partly-gated']]);
    expect(report.ok).toBe(false);
    const [problem] = report.servers[0]?.problems ?? [];
    expect(problem).toContain("claude code's sandbox is off");
    expect(problem).toContain('`linkgate hook claude-code --print-config --server docs -- COMMAND`');
    expect(problem).toContain('`sandbox.allowUnsandboxedCommands: false`');
  });

  test('claude code with its sandbox keeping the shell out: gated', async () => {
    const report = await hooked('claude-code', { sandbox: { enabled: true, allowUnsandboxedCommands: false } });
    expect(serverStates(report)).toEqual([['claude-code', 'docs', 'gated']]);
    expect(report.ok).toBe(true);
  });

  test('gemini cli, whose sandbox holds its hooks beside the shell: partly gated, and it says it has none', async () => {
    const report = await hooked('gemini-cli');
    expect(serverStates(report)).toEqual([['gemini-cli', 'docs', 'partly-gated']]);
    expect(report.servers[0]?.problems[0]).toContain(
      "gemini cli's sandbox (`tools.sandbox`, `--sandbox`) runs the whole cli",
    );
    const post = report.hooks.filter((h) => h.phase === 'post');
    expect(post.every((h) => h.refusalMemory !== undefined)).toBe(true);
  });

  test('every host doctor knows has a line: what holds it, or plainly none', async () => {
    const { home, project } = scratch();
    const places = { home, cwd: project, env: { HOME: home } };
    for (const host of doctorHosts) {
      const why = await refusalMemoryNotHeld(host, undefined, places, places.env);
      expect([host, typeof why]).toEqual([host, 'string']);
    }
  });
});
