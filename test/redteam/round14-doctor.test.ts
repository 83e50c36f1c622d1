// Red team (issue 39, hidden-style round 14), doctor on set-ups it may call gated that are not: a project's
// `.mcp.json` whose proxied server holds `${VAR}` (Claude Code expands `${VAR}` and `${VAR:-default}` in a server's
// command, args and env from its own environment; doctor read them as written), Claude Code's hooks turned off in the
// project's local settings, a hook in observe mode, a hook whose linkgate cannot start, and one given less time than
// it needs. Each case changes one thing of a set-up doctor calls gated (the control); `linkgate doctor --json` over a
// scratch home, doctor's environment holding the variables the host would expand.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: env var NODE_OPTIONS, args var flag — doctor read `${VAR}` in a Claude Code server entry as written
// (src/doctor/claude-code-config.ts) — mended by redteam17 (an entry holding one is not known to be linkgate)
// key: post timeout — doctor took `onFailure: "block"` as closing a post hook too (src/doctor/configured-hook.ts) —
// mended by redteam17 (src/hosts/claude-code.ts `resultPassesOnFailure`)
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import {
  defaultPolicy,
  everyHandler,
  doctorReport,
  plainServer,
  printedHook,
  proxiedServer,
  serverStates,
  useScratch,
  write,
} from '../doctor/doctor-scratch.ts';
import { caseKeys } from './round-cases.ts';

// every key held since redteam17's fixes
const open = new Set<string>([]);
const it = caseKeys(open);
const scratch = useScratch('linkgate-redteam-r14doctor-');
const sandbox = { enabled: true, allowUnsandboxedCommands: false };
const gated = (report: DoctorReport) => serverStates(report).some(([, n, s]) => n === 'docs' && s === 'gated');

describe("red team, doctor (round 14): `${VAR}` in a project's .mcp.json, as Claude Code expands it", () => {
  /** Doctor's report on `.mcp.json` serving `docs` through the proxy, changed by `change`, with `env` around doctor. */
  async function expanded(
    change: (entry: { command: string; args: string[] }) => object,
    env: Record<string, string> = {},
  ) {
    const { home, project } = scratch();
    write(path.join(home, '.claude', 'settings.json'), {});
    write(path.join(project, '.mcp.json'), { mcpServers: { docs: change(proxiedServer()) } });
    write(path.join(home, '.claude.json'), {
      projects: { [project]: { enabledMcpjsonServers: ['docs'], hasTrustDialogAccepted: true } },
    });
    return doctorReport(home, project, env);
  }
  test('control: the proxied server as printed: gated', async () => {
    expect(gated(await expanded((e) => e))).toBe(true);
  });
  it('env var NODE_OPTIONS')('its env `NODE_OPTIONS: ${LG_OPTS}`, LG_OPTS a --require: not gated', async () => {
    const report = await expanded((e) => ({ ...e, env: { NODE_OPTIONS: '${LG_OPTS}' } }), {
      LG_OPTS: '--require /tmp/linkgate-no-such-preload.js',
    });
    expect(gated(report)).toBe(false);
  });
  test('`--mode ${LG_MODE:-observe}` in its args: not called gated', async () => {
    const report = await expanded((e) => ({
      ...e,
      args: [e.args[0], 'proxy', '--mode', '${LG_MODE:-observe}', ...e.args.slice(2)],
    }));
    expect(gated(report)).toBe(false);
  });
  test('`--policy ${LG_POLICY:-…}`, LG_POLICY a file doctor never read: not called gated', async () => {
    const report = await expanded(
      (e) => ({ ...e, args: e.args.map((a) => (a === defaultPolicy ? `\${LG_POLICY:-${defaultPolicy}}` : a)) }),
      { LG_POLICY: '/tmp/linkgate-no-such-policy.yaml' },
    );
    expect(gated(report)).toBe(false);
  });
  it('args var flag')(
    'an argument `${LG_EXTRA}` before `--`, LG_EXTRA `--mode=observe`: not called gated',
    async () => {
      const report = await expanded(
        (e) => ({ ...e, args: [...e.args.slice(0, 4), '${LG_EXTRA}', ...e.args.slice(4)] }),
        { LG_EXTRA: '--mode=observe' },
      );
      expect(gated(report)).toBe(false);
    },
  );
  test('`command: ${LG_NODE:-node}`, LG_NODE another program: not called gated', async () => {
    const report = await expanded((e) => ({ ...e, command: '${LG_NODE:-node}' }), { LG_NODE: '/bin/true' });
    expect(gated(report)).toBe(false);
  });
});

describe('red team, doctor (round 14): Claude Code hooks that do not gate', () => {
  /** Doctor's report on the printed hooks in the user's settings, `docs` a plain server, after `tweak`. */
  async function hooked(
    tweak: (home: string, project: string, settings: Record<string, unknown>) => void,
    ...options: string[]
  ) {
    const { home, project } = scratch();
    const settings = hostSettings['claude-code'](printedHook('claude-code', ...options)) as Record<string, unknown>;
    tweak(home, project, settings);
    write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox });
    write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
    return doctorReport(home, project);
  }
  test('control: the printed hooks: gated', async () => {
    expect(gated(await hooked(() => {}))).toBe(true);
  });
  test("`disableAllHooks` in the project's .claude/settings.local.json: not gated", async () => {
    const report = await hooked((_, project) =>
      write(path.join(project, '.claude', 'settings.local.json'), { disableAllHooks: true }),
    );
    expect(gated(report)).toBe(false);
  });
  test('the hooks in `--mode observe`: not gated', async () => {
    expect(gated(await hooked(() => {}, '--mode', 'observe'))).toBe(false);
  });
  test('a hook whose linkgate entry does not exist: not gated', async () => {
    const report = await hooked((_, __, settings) =>
      everyHandler(settings, (h) => {
        h['command'] = String(h['command']).replace(cliEntry(), '/tmp/linkgate-no-such/cli.js');
      }),
    );
    expect(gated(report)).toBe(false);
  });
  it('post timeout')(
    'its post hooks given 1 s by their `timeout` (`onFailure: "block"` holds back no result): not gated',
    async () => {
      const report = await hooked((_, __, settings) => {
        const hooks = settings['hooks'] as Record<string, { hooks: Record<string, unknown>[] }[]>;
        // a copy of each handler: the printed settings share one handler object between events
        for (const group of hooks['PostToolUse'] ?? []) group.hooks = group.hooks.map((h) => ({ ...h, timeout: 1 }));
      });
      expect(gated(report)).toBe(false);
    },
  );
  test('control: its pre hooks given 1 s (`onFailure: "block"` refuses the read that times out): still gated', async () => {
    const report = await hooked((_, __, settings) => {
      const hooks = settings['hooks'] as Record<string, { hooks: Record<string, unknown>[] }[]>;
      // a copy of each handler: the printed settings share one handler object between events
      for (const group of hooks['PreToolUse'] ?? []) group.hooks = group.hooks.map((h) => ({ ...h, timeout: 1 }));
    });
    expect(gated(report)).toBe(true);
  });
});
