// What each real host lists as its MCP servers (`claude mcp list`, `codex mcp list --json`, `gemini mcp list`), and
// the trust Codex computes for its hooks (`codex app-server`, `hooks/list`): the oracles doctor is checked against.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { runProcess } from '../real-host/run-process.ts';

/** The environment a host runs with in a scratch HOME: offline, no updates, no telemetry. */
export function hostEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: `${home}/.codex`,
    LANG: 'C.UTF-8',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...extra,
  };
}

/** The server names `claude mcp list` prints (one `NAME: COMMAND - STATUS` line each), sorted. */
export async function claudeListing(bin: string, home: string, cwd: string): Promise<string[]> {
  const run = await runProcess(bin, ['mcp', 'list'], { cwd, env: hostEnv(home), timeoutMs: 90_000 });
  return names(run.stdout, /^(\S.*?): .* - \S/);
}

/** The server names `codex mcp list --json` prints, sorted. */
export async function codexListing(bin: string, home: string, cwd: string): Promise<string[]> {
  const run = await runProcess(bin, ['mcp', 'list', '--json'], { cwd, env: hostEnv(home), timeoutMs: 30_000 });
  return (JSON.parse(run.stdout) as { name: string }[]).map((s) => s.name).sort();
}

/** The server names `gemini mcp list` prints (`● NAME: COMMAND (stdio) - STATUS`), sorted. */
export async function geminiListing(bin: string, home: string, cwd: string): Promise<string[]> {
  const run = await runProcess(process.execPath, [bin, 'mcp', 'list'], {
    cwd,
    env: hostEnv(home),
    timeoutMs: 90_000,
  });
  return names(`${run.stdout}\n${run.stderr}`, /^\S+ (.+?): .* \((?:stdio|http|sse)\) - /);
}

function names(text: string, line: RegExp): string[] {
  return text
    .split('\n')
    .flatMap((l) => {
      const m = line.exec(l);
      return m?.[1] === undefined ? [] : [m[1]];
    })
    .sort();
}

/** One hook as `codex app-server` lists it: its trust key, the hash Codex computes, and the trust it recorded. */
export interface CodexHookEntry {
  key: string;
  command: string;
  currentHash: string;
  trustStatus: string;
}

/** The hooks Codex discovers for `cwd`, from its app server's `hooks/list` (what its `/hooks` screen shows). */
export async function codexHookList(bin: string, home: string, cwd: string): Promise<CodexHookEntry[]> {
  const child = spawn(bin, ['app-server'], { cwd, env: hostEnv(home), stdio: ['pipe', 'pipe', 'ignore'] });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  try {
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'doctor-test', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
    for await (const line of createInterface({ input: child.stdout })) {
      const message = JSON.parse(line) as { id?: number; result?: { data: { hooks: CodexHookEntry[] }[] } };
      if (message.id === 2) return message.result?.data.flatMap((d) => d.hooks) ?? [];
    }
    throw new Error('codex app-server ended without answering hooks/list');
  } finally {
    child.kill();
  }
}
