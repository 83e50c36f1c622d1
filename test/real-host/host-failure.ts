// What the failure suites share: the printed set-up of a host (the proxy in front of the fixture server, the hooks as
// a second layer) with its hook command replaced by one that cannot start or one that hangs past its timeout.
import { expect } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import type { McpServerConfig } from './claude-code.ts';
import { tsServerCommand } from './fixture-process.ts';

/** How a hook fails: its command replaced. */
export const hookFailures = {
  'cannot start': (command: string) => command.replace(/^node \S+/, 'node /nonexistent/linkgate.js'),
  hangs: () => 'sleep 600',
  crashes: () => 'cat >/dev/null; echo "linkgate crashed" >&2; exit 1',
  'answers garbage': () => 'cat >/dev/null; echo "{not json"',
} as const;

/** A way a hook fails, by name. */
export type HookFailure = keyof typeof hookFailures;

type Handler = { command: string; timeout: number };

/**
 * `linkgate hook HOST --print-config --server fixture -- <fixture server>` with every hook command replaced as
 * `failure` says and each timeout set to `timeout` (the host's unit); the proxy entry logs the server's requests.
 */
export async function failingPrintedSetUp(
  host: string,
  failure: HookFailure,
  timeout: number,
  requestLog: string,
  recordsFile: string,
): Promise<{ hooks: Record<string, unknown>; fixture: McpServerConfig }> {
  const args = ['hook', host, '--print-config', '--records', recordsFile, '--server', 'fixture', '--'];
  const printed = await runCli([...args, ...tsServerCommand()]);
  expect(printed.code, printed.stderr).toBe(0);
  const config = JSON.parse(printed.stdout) as Record<string, unknown> & {
    hooks: Record<string, { hooks: Handler[] }[]>;
  };
  for (const entries of Object.values(config.hooks))
    for (const entry of entries)
      for (const handler of entry.hooks) {
        handler.command = hookFailures[failure](handler.command);
        handler.timeout = timeout;
      }
  const servers = (config['mcpServers'] ?? config['mcp_servers']) as Record<
    string,
    { command: string; args: string[] }
  >;
  const proxy = servers['fixture'];
  if (proxy === undefined) throw new Error('no proxy entry printed');
  return {
    hooks: { hooks: config.hooks },
    fixture: { command: proxy.command, args: proxy.args, env: { LINKGATE_REQUEST_LOG: requestLog } },
  };
}
