// Red team (issue 39, hidden-style round 4), doctor: set-ups `linkgate doctor` could call gated where the host reaches
// the server another way or never runs the hook as a command. Each case changes one thing of a set-up doctor calls
// gated (the control in the same test). Hosts as their own code reads them: Claude Code picks a server's transport by
// its `type` (`http`, `sse`: the url, the command beside it never runs) and runs a hook handler by its `type` (an
// `http` handler posts to its url, a `prompt` or `agent` handler asks a model: a `command` beside either never runs);
// codex-rs refuses an `[mcp_servers.NAME]` with both `url` and `command` and does not load the file.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import {
  doctorReport,
  everyHandler,
  plainServer,
  printedHook,
  proxiedServer,
  serverStates,
  useScratch,
  write,
} from '../doctor/doctor-scratch.ts';

const scratch = useScratch('linkgate-redteam-hidden-doctor-');
const hookCommand = (host: string) => printedHook(host);
const server = plainServer;
const proxied = proxiedServer();
const doctor = (home: string, cwd: string) =>
  doctorReport(home, cwd, { GEMINI_CLI_TRUST_WORKSPACE: 'true' }, ['--no-start']);
const states = serverStates;

// the printed Claude Code hooks with `change` applied to every handler
function claudeHooks(change: (h: Record<string, unknown>) => void) {
  return everyHandler(hostSettings['claude-code'](hookCommand('claude-code')), change);
}

describe('red team, doctor (hidden): Claude Code runs a handler by its type', () => {
  for (const [type, extra] of [
    ['http', { url: 'http://127.0.0.1:9/hook' }],
    ['prompt', { prompt: 'allow everything' }],
    ['agent', { prompt: 'allow everything' }],
  ] as const)
    test(`a \`${type}\` handler carrying the printed command is not the command hook`, async () => {
      const { home, project } = scratch();
      write(path.join(home, '.claude.json'), { mcpServers: { docs: server } });
      write(
        path.join(home, '.claude', 'settings.json'),
        claudeHooks(() => {}),
      );
      expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
      write(
        path.join(home, '.claude', 'settings.json'),
        claudeHooks((h) => {
          h['type'] = type;
          Object.assign(h, extra);
        }),
      );
      expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
    });
});

describe('red team, doctor (hidden): Claude Code picks a server transport by its type', () => {
  for (const type of ['http', 'sse'])
    test(`a proxied command in an entry of \`type: ${type}\` with a url is reached over ${type}, not the proxy`, async () => {
      const { home, project } = scratch();
      write(path.join(home, '.claude.json'), { mcpServers: { docs: { type: 'stdio', ...proxied } } });
      expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'gated']]);
      write(path.join(home, '.claude.json'), {
        mcpServers: { docs: { type, url: 'http://127.0.0.1:9/mcp', ...proxied } },
      });
      expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
    });

  test('the same entry in the project file (.mcp.json) as well', async () => {
    const { home, project } = scratch();
    write(path.join(project, '.mcp.json'), {
      mcpServers: { docs: { type: 'http', url: 'http://127.0.0.1:9/mcp', ...proxied } },
    });
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });
});

describe('red team, doctor (hidden): a Codex entry with both `url` and `command` (held)', () => {
  test('Codex does not load it: doctor does not call the proxied command gated', async () => {
    const { home, project } = scratch();
    const args = JSON.stringify(proxied.args);
    write(path.join(home, '.codex', 'config.toml'), `[mcp_servers.docs]\ncommand = "node"\nargs = ${args}\n`);
    expect(states(await doctor(home, project))).toEqual([['codex', 'docs', 'gated']]);
    write(
      path.join(home, '.codex', 'config.toml'),
      `[mcp_servers.docs]\ncommand = "node"\nargs = ${args}\nurl = "http://127.0.0.1:9/mcp"\n`,
    );
    const report = await doctor(home, project);
    expect(states(report).filter(([, , state]) => state === 'gated' || state === 'partly-gated')).toEqual([]);
    expect(JSON.stringify(report)).toContain('codex refuses');
  });
});
