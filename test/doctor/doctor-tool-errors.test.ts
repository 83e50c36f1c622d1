// Doctor on Claude Code's tool error results (issue 39 item 2): an MCP tool answering `isError: true` reaches the model
// through `PostToolUseFailure`, whose answer cannot withhold it (measured on the real binary:
// test/real-host/claude-code-tool-error.test.ts), so no hook keeps a refused link in it from the model. On main doctor
// never named that path. Now a Claude Code server its hooks alone front names it as not gated, with the fix (the
// printed set-up with `linkgate proxy` in front, which gates it: nothing named then), the way the settings its hooks
// cannot enforce are named; the verdict still says what the hooks gate (the red-team controls pin `gated` there).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { runCommand } from '../helpers/run-cli.ts';
import {
  doctorReport,
  plainServer,
  printedHook,
  proxiedServer,
  serverStates,
  useScratch,
  write,
} from './doctor-scratch.ts';

const scratch = useScratch('linkgate-doctor-tool-errors-');
// the sandbox closed, so the hook's memory of refusals is held (doctor-refusal-memory.test.ts)
const sandbox = { enabled: true, allowUnsandboxedCommands: false };
const named = (server: string) =>
  expect.stringMatching(
    new RegExp(
      `^its tool results with \`isError: true\` are not gated by any hook: claude code hands them to the model through \`PostToolUseFailure\`, .* \\(test/real-host/claude-code-tool-error\\.test\\.ts\\); put \`linkgate proxy\` in front of it \\(\`linkgate hook claude-code --print-config --server ${server} -- COMMAND\` prints it beside the hooks\\)`,
    ),
  );

/** Claude Code's printed hooks with its sandbox closed, and `docs` as `entry` in ~/.claude.json. */
function claudeCode(entry: object): { home: string; project: string } {
  const { home, project } = scratch();
  write(path.join(home, '.claude.json'), { mcpServers: { docs: entry } });
  const settings = hostSettings['claude-code'](printedHook('claude-code')) as Record<string, unknown>;
  write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox });
  return { home, project };
}

describe("doctor: claude code's tool error results, which no hook can withhold", () => {
  test('hooks alone: the error results named not gated, the proxy named as the fix; with the proxy: nothing named', async () => {
    const { home, project } = claudeCode(plainServer);
    // codex beside it, its hooks alone gating (the system's hooks.json, its sandbox read-only): no tool error path of
    // codex was measured, so none is named there
    write(path.join(home, 'codex-system', 'hooks.json'), hostSettings.codex(printedHook('codex')));
    write(
      path.join(home, '.codex', 'config.toml'),
      'sandbox_mode = "read-only"\n[mcp_servers.docs]\ncommand = "node"\nargs = ["s.js"]\n',
    );
    let report = await doctorReport(home, project, {}, ['--no-start']);
    expect(serverStates(report)).toEqual([
      ['claude-code', 'docs', 'gated'],
      ['codex', 'docs', 'gated'],
    ]);
    expect(report.servers[0]?.notGated).toEqual([named('docs')]);
    expect(report.servers[1]?.notGated).toBeUndefined();

    // a server its hooks do not gate (no sandbox: the memory not held) names the path too
    write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](printedHook('claude-code')));
    report = await doctorReport(home, project, {}, ['--no-start']);
    expect(serverStates(report)[0]).toEqual(['claude-code', 'docs', 'partly-gated']);
    expect(report.servers[0]?.notGated).toEqual([named('docs')]);

    // the printed set-up (`--server`): the proxy in front of the server, the hooks kept: nothing named
    write(path.join(home, '.claude.json'), { mcpServers: { docs: proxiedServer('--server', 'docs') } });
    report = await doctorReport(home, project, {}, ['--no-start']);
    expect(serverStates(report)[0]).toEqual(['claude-code', 'docs', 'gated']);
    expect(report.servers[0]?.notGated).toBeUndefined();
    expect(report.servers[0]?.problems).toEqual([]);
  });

  test('the text names it under the server', async () => {
    const { home, project } = claudeCode(plainServer);
    const run = await runCommand(doctorCommand, ['--no-start'], {
      cwd: project,
      env: { HOME: home, PATH: process.env['PATH'] ?? '', LINKGATE_CLAUDE_MANAGED_DIR: path.join(home, 'managed') },
    });
    expect(run.stdout).toMatch(
      /docs \(user, ~\/\.claude\.json\): gated by the linkgate hook[^\n]*\n(?: {6}[^\n]*\n)* {6}not gated: its tool results with `isError: true` are not gated by any hook: claude code hands them/,
    );
  });
});
