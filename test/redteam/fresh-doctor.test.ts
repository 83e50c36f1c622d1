// Red team (issue 39, fresh session 3), doctor: set-ups `linkgate doctor` called gated where the host does not run
// the gate, or runs it in a way it cannot answer in. Each case changes one thing of a set-up doctor calls gated (the
// baseline of each describe). Hosts read as their own code reads them: Gemini CLI 0.61 connects to a server's
// `httpUrl` or `url` before it looks at `command` (`createTransport` in its bundle); a hook the host gives less time
// than the hook's own 10 s deadline is cut off by the host, which then lets the call through where the hook fails open;
// a bare `linkgate` is looked up on the PATH the server entry's own `env` gives it (Node's spawn).
import { chmodSync, linkSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import {
  defaultPolicy,
  doctorReport,
  everyHandler,
  plainServer,
  printedHook,
  proxiedServer,
  serverStates,
  useScratch,
  write,
} from '../doctor/doctor-scratch.ts';

const scratch = useScratch('linkgate-redteam-doctor-');
const hookCommand = printedHook;
const server = plainServer;
const proxied = proxiedServer;
const doctor = (home: string, cwd: string, env: Record<string, string> = {}) =>
  doctorReport(home, cwd, { GEMINI_CLI_TRUST_WORKSPACE: 'true', ...env }, ['--no-start']);
const states = serverStates;

describe('red team, doctor (fresh): a server entry the host reaches another way', () => {
  test('Gemini CLI: a proxied command beside an `httpUrl` is reached over http, not through the proxy', async () => {
    const { home, project } = scratch();
    const settings = (entry: object) =>
      write(path.join(home, '.gemini', 'settings.json'), { mcpServers: { docs: entry } });
    settings(proxied());
    expect(states(await doctor(home, project))).toEqual([['gemini-cli', 'docs', 'gated']]);
    settings({ ...proxied(), httpUrl: 'http://127.0.0.1:9/mcp' });
    expect(states(await doctor(home, project))).toEqual([['gemini-cli', 'docs', 'not-gated']]);
    settings({ ...proxied(), url: 'http://127.0.0.1:9/sse' });
    expect(states(await doctor(home, project))).toEqual([['gemini-cli', 'docs', 'not-gated']]);
  });

  test("a bare `linkgate` is looked up on the entry's own PATH: another `linkgate` there is not the gate", async () => {
    const { home, project } = scratch();
    const real = path.join(home, 'bin');
    const fake = path.join(home, 'fakebin');
    mkdirSync(real);
    symlinkSync(cliEntry(), path.join(real, 'linkgate'));
    // runs the server itself, ungated
    write(path.join(fake, 'linkgate'), '#!/bin/sh\nshift; while [ "$1" != "--" ]; do shift; done; shift; exec "$@"\n');
    chmodSync(path.join(fake, 'linkgate'), 0o755);
    const entry = { command: 'linkgate', args: ['proxy', '--policy', defaultPolicy, '--', 'node', 's.js'] };
    const env = { PATH: `${real}:${process.env['PATH'] ?? ''}` };
    write(path.join(home, '.claude.json'), { mcpServers: { docs: entry } });
    expect(states(await doctor(home, project, env))).toEqual([['claude-code', 'docs', 'gated']]);
    write(path.join(home, '.claude.json'), {
      mcpServers: { docs: { ...entry, env: { PATH: `${fake}:/usr/bin:/bin` } } },
    });
    expect(states(await doctor(home, project, env))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test('a proxy whose `--records` file has another hard link (it refuses to start) is not gated', async () => {
    const { home, project } = scratch();
    const records = path.join(home, 'records.jsonl');
    write(path.join(home, 'bashrc'), 'export PATH=/usr/bin\n');
    linkSync(path.join(home, 'bashrc'), records);
    write(path.join(home, '.claude.json'), { mcpServers: { docs: proxied('--records', records) } });
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });
});

describe('red team, doctor (fresh): a hook the host gives less time than its own deadline', () => {
  test('Gemini CLI (fails open): a hook timeout of 1 s is cut before the hook can answer a slow event', async () => {
    const { home, project } = scratch();
    const settings = (timeoutMs: number) =>
      write(path.join(home, '.gemini', 'settings.json'), {
        mcpServers: { docs: server },
        ...everyHandler(hostSettings['gemini-cli'](hookCommand('gemini-cli')), (h) => {
          h['timeout'] = timeoutMs;
        }),
      });
    settings(30_000);
    expect(states(await doctor(home, project))).toEqual([['gemini-cli', 'docs', 'partly-gated']]);
    settings(1000);
    expect(states(await doctor(home, project))).toEqual([['gemini-cli', 'docs', 'not-gated']]);
  });

  test('Claude Code without `onFailure: "block"` (fails open): a hook timeout of 2 s', async () => {
    const { home, project } = scratch();
    const settings = (timeout: number) =>
      write(path.join(home, '.claude', 'settings.json'), {
        ...everyHandler(hostSettings['claude-code'](hookCommand('claude-code')), (h) => {
          delete h['onFailure'];
          h['timeout'] = timeout;
        }),
      });
    write(path.join(home, '.claude.json'), { mcpServers: { docs: server } });
    settings(30);
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
    settings(2);
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  // `onFailure: "block"` closes a pre hook that times out, never a post one: Claude Code hands the tool result on
  // (measured: test/real-host/claude-code-failure.test.ts, `hangs`), so a short timeout there gates nothing
  test('Claude Code with `onFailure: "block"`: a short timeout on its pre hooks still gates, on its post hooks not', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { docs: server } });
    const settings = (event: string) => {
      const printed = hostSettings['claude-code'](hookCommand('claude-code')) as Record<string, unknown>;
      const hooks = printed['hooks'] as Record<string, { hooks: Record<string, unknown>[] }[]>;
      // a copy of each handler: the printed settings share one handler object between events
      for (const group of hooks[event] ?? []) group.hooks = group.hooks.map((h) => ({ ...h, timeout: 2 }));
      write(path.join(home, '.claude', 'settings.json'), printed);
    };
    settings('PreToolUse');
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
    settings('PostToolUse');
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });
});
