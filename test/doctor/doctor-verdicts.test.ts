// What doctor calls gated (issue 40 items 1 and 2): gated means enforcing. A front end in `--mode observe` is its own
// state and fails the run unless `--allow-observe`; `--json` carries mode, front end, fail mode and the records file's
// health; `--require-signed` refuses a policy whose review is not checked; a script merely named `linkgate.js` is not
// linkgate; each host's own switches (`disableAllHooks` across layers, Gemini's `hooksConfig`) and handler options
// (`async`, `once`, `if`) are read as the host reads them; a matcher is judged against the names the host gives.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { runCommand } from '../helpers/run-cli.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { useScratch, write } from './doctor-scratch.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const policy = path.join(repoRoot, 'policies', 'default.yaml');
const scratch = useScratch('linkgate-doctor-');
// claude code's sandbox with no command outside it: the hooks' state folder (in the home) is out of the shell's reach
const heldSandbox = { enabled: true, allowUnsandboxedCommands: false };

const proxy = (...options: string[]) => ({
  command: 'node',
  args: [cliEntry(), 'proxy', '--policy', policy, ...options, '--', 'node', 's.js'],
});
const hookCommand = (host: string, ...options: string[]) =>
  ['node', cliEntry(), 'hook', host, '--policy', policy, ...options].map(shellQuote).join(' ');

async function doctorCli(
  home: string,
  project: string,
  ...args: string[]
): Promise<{ code: number; report: DoctorReport; text: string }> {
  const env = { HOME: home, PATH: process.env['PATH'] ?? '' };
  const json = await runCommand(doctorCommand, ['--json', ...args], { cwd: project, env });
  const text = await runCommand(doctorCommand, args, { cwd: project, env });
  expect(text.code).toBe(json.code);
  return { code: json.code, report: JSON.parse(json.stdout) as DoctorReport, text: text.stdout };
}

describe('gated means enforcing', () => {
  test('an observe-mode proxy and observe-mode hooks are observe, not gated: exit 1 unless --allow-observe', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), {
      mcpServers: { enforced: proxy(), watched: proxy('--mode', 'observe'), hooked: { command: 'node', args: ['s'] } },
    });
    write(
      path.join(home, '.claude', 'settings.json'),
      hostSettings['claude-code'](hookCommand('claude-code', '--mode=observe')),
    );
    let { code, report, text } = await doctorCli(home, project);
    expect(report.servers.map((s) => [s.name, s.gate, s.state, s.mode, s.gated])).toEqual([
      ['enforced', 'proxy', 'gated', 'enforce', true],
      ['watched', 'proxy', 'observe', 'observe', false],
      ['hooked', 'hook', 'observe', 'observe', false],
    ]);
    expect(report.hooks.map((h) => [h.event, h.mode, h.runs])).toEqual([
      ['PreToolUse', 'observe', true],
      ['PostToolUse', 'observe', true],
      ['PostToolUseFailure', 'observe', true],
    ]);
    expect(code).toBe(1);
    expect(text).toContain('~ watched (user, ~/.claude.json): observed by linkgate proxy, not gated (observe mode)');
    expect(text).toMatch(/3 servers: 1 gated, 2 observe only, 0 not gated;/);

    ({ code, report, text } = await doctorCli(home, project, '--allow-observe'));
    expect(code).toBe(0);
    expect(report.allowObserve).toBe(true);
    expect(report.servers.map((s) => s.state)).toEqual(['gated', 'observe', 'observe']);
    expect(text).toMatch(/1 gated, 2 observe only \(allowed\)/);
  });

  test('an enforcing hook beside an observing one gates; fail mode is closed for a proxy and per host for a hook', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { a: { command: 'node', args: ['s.js'] }, p: proxy() } });
    const enforce = hostSettings['claude-code'](hookCommand('claude-code')).hooks;
    const observe = hostSettings['claude-code'](hookCommand('claude-code', '--mode', 'observe')).hooks;
    write(path.join(home, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [...(enforce['PreToolUse'] ?? []), ...(observe['PreToolUse'] ?? [])],
        PostToolUse: enforce['PostToolUse'],
      },
    });
    write(path.join(home, '.codex', 'config.toml'), '[mcp_servers.c]\ncommand = "node"\nargs = ["s.js"]\n');
    write(path.join(home, '.codex', 'hooks.json'), hostSettings.codex(hookCommand('codex')));
    const { report } = await doctorCli(home, project);
    expect(report.servers.map((s) => [s.host, s.name, s.state, s.mode, s.failMode])).toEqual([
      ['claude-code', 'a', 'partly-gated', 'enforce', 'closed'],
      ['claude-code', 'p', 'gated', 'enforce', 'closed'],
      // codex skips an untrusted hook; and a codex hook that cannot start lets the call through
      ['codex', 'c', 'not-gated', 'enforce', 'open'],
    ]);
    expect(report.hooks.filter((h) => h.host === 'codex').map((h) => h.failMode)).toEqual(['open', 'open']);
  });

  test('a --records file in a folder that does not exist is named and the server is not gated', async () => {
    const { home, project } = scratch();
    const missing = path.join(home, 'no-such-folder', 'records.jsonl');
    const fine = path.join(home, 'records.jsonl');
    write(path.join(home, '.claude.json'), {
      mcpServers: { lost: proxy('--records', missing), kept: proxy('--records', fine) },
    });
    const { code, report, text } = await doctorCli(home, project);
    expect(report.servers.map((s) => [s.name, s.gated, s.records])).toEqual([
      [
        'lost',
        false,
        [
          {
            file: missing,
            writable: false,
            problem: `records folder \`${path.dirname(missing)}\` does not exist: no record can be written`,
          },
        ],
      ],
      ['kept', true, [{ file: fine, writable: true }]],
    ]);
    expect(text).toContain(`records folder \`${path.dirname(missing)}\` does not exist`);
    expect(code).toBe(1);
  });

  test('--require-signed: a policy whose review is not checked does not gate', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { p: proxy() } });
    expect((await doctorCli(home, project)).code).toBe(0);
    const { code, report } = await doctorCli(home, project, '--require-signed');
    expect(report.requireSigned).toBe(true);
    expect(report.servers.map((s) => [s.state, s.problems])).toEqual([
      [
        'not-gated',
        [
          `policy \`${policy}\` has no review checked (no allowed signers given): \`--require-signed\` asks for one that verifies`,
        ],
      ],
    ]);
    expect(code).toBe(1);
  });

  test('a script merely named linkgate.js is not the proxy', async () => {
    const { home, project } = scratch();
    const impostor = path.join(home, 'tools', 'linkgate.js');
    write(impostor, 'process.stdin.pipe(process.stdout)\n');
    write(path.join(home, '.claude.json'), {
      mcpServers: {
        fake: { command: 'node', args: [impostor, 'proxy', '--policy', policy, '--', 'node', 's.js'] },
      },
    });
    const { code, report } = await doctorCli(home, project);
    expect(report.servers[0]?.gated).toBe(false);
    expect(report.servers[0]?.problems).toContain(
      `\`${impostor}\` is not linkgate's entry: no linkgate package.json or plugin manifest names it`,
    );
    expect(code).toBe(1);
  });
});

describe("each host's own switches and handler options", () => {
  test('claude code: `disableAllHooks: false` in a higher layer re-enables hooks (no false alarm)', async () => {
    const { home, project } = scratch();
    write(path.join(project, '.mcp.json'), { mcpServers: { a: { command: 'node', args: ['s.js'] } } });
    write(path.join(home, '.claude', 'settings.json'), {
      disableAllHooks: true,
      ...hostSettings['claude-code'](hookCommand('claude-code')),
    });
    write(path.join(project, '.claude', 'settings.local.json'), { disableAllHooks: false });
    let { report } = await doctorCli(home, project);
    expect(report.servers.map((s) => s.state)).toEqual(['partly-gated']);
    expect(report.hooks.every((h) => h.runs)).toBe(true);
    // and the other way round: the local layer turns them off
    write(path.join(project, '.claude', 'settings.local.json'), { disableAllHooks: true });
    ({ report } = await doctorCli(home, project));
    expect(report.servers.map((s) => s.state)).toEqual(['not-gated']);
  });

  test.each([
    [{ async: true }, 'runs in the background (`async`): claude code lets the call go before it answers'],
    [{ once: true }, 'runs once (`once`) and is then removed: later calls are not gated'],
    [{ if: 'ReadMcpResourceTool(docs:*)' }, 'runs only for calls its `if` rule matches'],
  ])('claude code: a handler with %j is no gate', async (option, line) => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { a: { command: 'node', args: ['s.js'] } } });
    const settings = hostSettings['claude-code'](hookCommand('claude-code'));
    const pre = settings.hooks['PreToolUse'] as { matcher: string; hooks: object[] }[];
    const [group] = pre;
    if (group === undefined) throw new Error('no PreToolUse group');
    pre[0] = { ...group, hooks: [{ ...group.hooks[0], ...option }] };
    write(path.join(home, '.claude', 'settings.json'), settings);
    const { code, report } = await doctorCli(home, project);
    expect(report.hooks.find((h) => h.event === 'PreToolUse')?.problems).toEqual([line]);
    expect(report.servers[0]?.problems).toEqual([
      'no linkgate hook that runs sees its reads before they happen',
      `its linkgate hooks will not run: ${line}`,
    ]);
    expect(code).toBe(1);
  });

  test('gemini cli: `hooksConfig.enabled: false` and `hooksConfig.disabled` naming the command turn the hook off', async () => {
    const { home, project } = scratch();
    const command = hookCommand('gemini-cli');
    write(path.join(home, '.gemini', 'settings.json'), {
      mcpServers: { g: { command: 'node', args: ['s.js'] } },
      ...hostSettings['gemini-cli'](command),
    });
    // gemini cli loads project settings (and runs any settings hook) only in a folder it trusts
    write(path.join(home, '.gemini', 'trustedFolders.json'), { [project]: 'TRUST_FOLDER' });
    const states = async () => (await doctorCli(home, project)).report;
    expect((await states()).servers.map((s) => s.state)).toEqual(['partly-gated']);

    write(path.join(project, '.gemini', 'settings.json'), { hooksConfig: { enabled: false } });
    let report = await states();
    expect(report.servers.map((s) => s.state)).toEqual(['not-gated']);
    expect(report.hooks[0]?.problems[0]).toBe(
      `hooks are turned off in gemini cli (\`hooksConfig.enabled: false\` in \`${path.join(project, '.gemini', 'settings.json')}\`)`,
    );

    write(path.join(project, '.gemini', 'settings.json'), { hooksConfig: { disabled: [command] } });
    report = await states();
    expect(report.servers.map((s) => s.state)).toEqual(['not-gated']);
    expect(report.hooks.every((h) => h.problems[0]?.includes('`hooksConfig.disabled`'))).toBe(true);

    // a list naming another hook leaves this one running
    write(path.join(project, '.gemini', 'settings.json'), { hooksConfig: { disabled: ['other-hook'], enabled: true } });
    expect((await states()).servers.map((s) => s.state)).toEqual(['partly-gated']);
  });

  test("matchers are judged against the names the host gives the server's tools", async () => {
    const { home, project } = scratch();
    const servers = { docs: { command: 'node', args: ['s.js'] }, wiki: { command: 'node', args: ['s.js'] } };
    write(path.join(home, '.claude.json'), { mcpServers: servers });
    const handler = [{ type: 'command', command: hookCommand('claude-code'), onFailure: 'block' }];
    write(path.join(home, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [{ matcher: 'ReadMcpResourceTool', hooks: handler }],
        // a regex (it holds `.*`): claude code searches it in the name, so `mcp__docs` hits every tool of docs too
        PostToolUse: [{ matcher: 'ReadMcpResourceTool|mcp__docs|mcp__wiki__.*', hooks: handler }],
      },
    });
    let { report } = await doctorCli(home, project);
    expect(report.servers.map((s) => [s.name, s.state])).toEqual([
      ['docs', 'partly-gated'],
      ['wiki', 'partly-gated'],
    ]);
    // an exact list (letters, `_` and `|` only): it names no tool of either server, so it covers neither
    write(path.join(home, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [{ matcher: 'ReadMcpResourceTool', hooks: handler }],
        PostToolUse: [{ matcher: 'ReadMcpResourceTool|mcp__docs|mcp__wiki', hooks: handler }],
      },
    });
    ({ report } = await doctorCli(home, project));
    expect(report.servers.map((s) => [s.name, s.state, s.problems])).toEqual([
      ['docs', 'not-gated', ['no linkgate hook that runs sees its tool results']],
      ['wiki', 'not-gated', ['no linkgate hook that runs sees its tool results']],
    ]);
  });

  test("a server's own tools, listed as the host would start it, are what an exact-list matcher is judged against", async () => {
    const { home, project } = scratch();
    const [command, ...args] = tsServerCommand();
    write(path.join(home, '.claude.json'), {
      mcpServers: { fx: { command, args, env: { LINKGATE_REQUEST_LOG: path.join(home, 'requests.jsonl') } } },
    });
    const handler = [{ type: 'command', command: hookCommand('claude-code'), onFailure: 'block' }];
    // claude code's sandbox keeps the agent's shell out of the hook's state folder: the hooks alone gate
    const settings = (post: string) => ({
      sandbox: heldSandbox,
      hooks: {
        PreToolUse: [{ matcher: 'ReadMcpResourceTool', hooks: handler }],
        PostToolUse: [{ matcher: post, hooks: handler }],
      },
    });
    // the fixture server is the SDK's McpServer, which declares `tools.listChanged`: its list is only its first one, so
    // a matcher naming every tool it lists now still leaves the tools it may add unseen (a stable list named tool by
    // tool is gated: test/redteam/round8-doctor.test.ts)
    const changing = 'it declares its tool list may change (`tools.listChanged`)';
    const all = 'ReadMcpResourceTool|mcp__fx__links|mcp__fx__embedded|mcp__fx__described|mcp__fx__renderings';
    write(path.join(home, '.claude', 'settings.json'), settings(all));
    const first = await doctorCli(home, project);
    let { code, report } = first;
    const { text } = first;
    expect(report.servers.map((s) => [s.name, s.state, s.tools])).toEqual([
      ['fx', 'not-gated', { names: ['links', 'embedded', 'described', 'renderings'], changing: true }],
    ]);
    expect(report.servers[0]?.problems).toEqual([expect.stringContaining(changing)]);
    expect(text).toContain('tools links, embedded, described, renderings for now (its list may change');
    expect(code).toBe(1);

    // one tool left out of the list as well: its results reach the model unseen, and are named
    write(path.join(home, '.claude', 'settings.json'), settings(all.replace('|mcp__fx__renderings', '')));
    ({ code, report } = await doctorCli(home, project));
    expect(report.servers[0]?.problems).toEqual([
      'no linkgate hook that runs sees the results of its tools `mcp__fx__renderings`',
      expect.stringContaining(changing),
    ]);
    expect(code).toBe(1);

    // a matcher over the server's whole namespace covers whatever it adds
    write(path.join(home, '.claude', 'settings.json'), settings('ReadMcpResourceTool|mcp__fx__.*'));
    ({ code, report } = await doctorCli(home, project));
    expect(report.servers.map((s) => [s.state, s.problems])).toEqual([['gated', []]]);
    expect(code).toBe(0);

    // not started: an exact list cannot be shown to cover tools nobody listed
    write(path.join(home, '.claude', 'settings.json'), settings(all));
    ({ code, report } = await doctorCli(home, project, '--no-start'));
    expect(report.servers.map((s) => [s.state, s.tools])).toEqual([['not-gated', undefined]]);
    expect(code).toBe(1);
  }, 60_000);

  test("a server the project's files declare is never started by doctor", async () => {
    const { home, project } = scratch();
    const marker = path.join(home, 'ran');
    // a cloned repository's .mcp.json: running its command would be running the repository's code
    write(path.join(project, '.mcp.json'), {
      mcpServers: {
        repo: { command: 'node', args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`] },
      },
    });
    write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](hookCommand('claude-code')));
    const { report } = await doctorCli(home, project);
    expect(report.servers.map((s) => [s.name, s.scope, s.state, s.tools])).toEqual([
      ['repo', 'project', 'partly-gated', { unknown: "declared in the project's files: doctor starts no such server" }],
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  test('claude code: an exec-form handler (`command` and `args`, no shell) is read word for word', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { a: { command: 'node', args: ['s.js'] } } });
    const settings = hostSettings['claude-code'](hookCommand('claude-code'));
    const exec = {
      type: 'command',
      command: 'node',
      args: [cliEntry(), 'hook', 'claude-code', '--policy', policy],
      onFailure: 'block',
    };
    for (const groups of Object.values(settings.hooks) as { hooks: object[] }[][])
      for (const group of groups) group.hooks = [exec];
    write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox: heldSandbox });
    const { code, report } = await doctorCli(home, project, '--no-start');
    expect(report.hooks.map((h) => [h.event, h.argv, h.runs])).toEqual(
      ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'].map((e) => [e, ['node', ...exec.args], true]),
    );
    expect([report.servers[0]?.state, code]).toEqual(['gated', 0]);
  });

  test('a hook names the policy settings its host never shows it (the proxy enforces them)', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](hookCommand('claude-code')));
    write(path.join(home, '.codex', 'hooks.json'), hostSettings.codex(hookCommand('codex')));
    const { report, text } = await doctorCli(home, project);
    const spots = (host: string) =>
      report.hooks.filter((h) => h.host === host).map((h) => h.warnings.filter((w) => w.startsWith('not enforced by')));
    expect(spots('claude-code').every((w) => w.length === 1 && w[0]?.includes('`links.maxDeclaredBytes`'))).toBe(true);
    expect(spots('codex')).toEqual([[], []]);
    expect(text).toContain('warning: not enforced by the claude-code hook: `links.maxDeclaredBytes`');
  });

  test('a hook whose policy drops default consumers says which ones are not protected', async () => {
    const { home, project } = scratch();
    const short = path.join(home, 'short.yaml');
    write(
      short,
      readFileSync(policy, 'utf8').replace(
        '  maxImagePixels: 50000000',
        '  maxImagePixels: 50000000\n  consumers: [browser, markdown]',
      ),
    );
    const command = ['node', cliEntry(), 'hook', 'claude-code', '--policy', short].map(shellQuote).join(' ');
    write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](command));
    const { report, text } = await doctorCli(home, project, '--no-start');
    const dropped = report.hooks.map((h) => h.warnings.filter((w) => w.includes('lint.consumers-dropped')));
    expect(dropped.length).toBeGreaterThan(0);
    for (const lines of dropped) {
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('`notebook`, `pdf-reader`, `launcher`, `shell`');
    }
    expect(text).toContain('lint.consumers-dropped');
  });
});
