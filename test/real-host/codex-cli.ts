// Codex CLI (a native binary in the npm package's platform build), installed on demand and run offline against the
// scripted model API in its Responses dialect (research note §6): fresh HOME and CODEX_HOME per run, whose
// config.toml names the local model provider and the MCP servers, and hooks.json the hooks.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { McpServerConfig } from './claude-code.ts';
import { recorderCommand } from './claude-code.ts';
import { type FunctionCallOutput, functionCallOutputsOf, responsesDialect } from './codex-model-api.ts';
import { type HostCommand, type HostRunResult, runHost } from './host-run.ts';
import { type HostInstall, installPackage } from './install-package.ts';
import type { ScriptStep } from './model-api.ts';

/** The Codex CLI version the harness pins (verified to run here offline). */
export const codexCliVersion = '0.171.0';

/** One Codex CLI run: its MCP servers, hooks (hooks.json), the prompt and the model's script. */
export interface CodexCliOptions {
  mcpServers: Record<string, McpServerConfig>;
  /** written as `$CODEX_HOME/hooks.json` (e.g. what `linkgate hook codex --print-config` prints) */
  hooks?: Record<string, unknown>;
  prompt: string;
  /** the scripted model turns; MCP tools named as hooks see them (`mcp__<server>__<tool_snake_case>`) */
  script: readonly ScriptStep[];
  /** hard limit for the whole run; the process tree is killed after it (milliseconds, default 120000) */
  timeoutMs?: number;
  /** extra environment for the host (and so its MCP servers and hooks) */
  env?: Record<string, string>;
  /** pass `--dangerously-bypass-hook-trust` (default true: hooks run untrusted, as automation runs them) */
  bypassHookTrust?: boolean;
  /** starts codex through another command (e.g. in a private mount namespace), given how it would start */
  wrap?: (command: HostCommand) => HostCommand;
}

/** What a Codex CLI run produced; `toolResults` are the `function_call_output` items by call id. */
export type CodexCliResult = HostRunResult<FunctionCallOutput>;

// the platform builds are versions of @openai/codex itself (`0.171.0-linux-x64`), the binary under vendor/<triple>/
const platforms: Readonly<Record<string, { tag: string; triple: string }>> = {
  'linux-x64': { tag: 'linux-x64', triple: 'x86_64-unknown-linux-musl' },
  'linux-arm64': { tag: 'linux-arm64', triple: 'aarch64-unknown-linux-musl' },
  'darwin-x64': { tag: 'darwin-x64', triple: 'x86_64-apple-darwin' },
  'darwin-arm64': { tag: 'darwin-arm64', triple: 'aarch64-apple-darwin' },
};

/** Installs the pinned Codex CLI native build into the test cache (once per machine), or says why not. */
export function installCodexCli(env: NodeJS.ProcessEnv = process.env): Promise<HostInstall> {
  const platform = platforms[`${process.platform}-${process.arch}`];
  if (platform === undefined)
    return Promise.resolve({ ok: false, reason: `no Codex CLI build for ${process.platform}-${process.arch}` });
  return installPackage(
    {
      name: '@openai/codex',
      version: `${codexCliVersion}-${platform.tag}`,
      bin: path.join('node_modules', '@openai', 'codex', 'vendor', platform.triple, 'bin', 'codex'),
      versionCheck: { args: ['--version'], expect: `codex-cli ${codexCliVersion}` },
    },
    env,
  );
}

// TOML basic strings take JSON's escapes (JSON.stringify never writes `\/`)
const toml = (value: string): string => JSON.stringify(value);
const tomlArray = (values: readonly string[]): string => `[${values.map(toml).join(', ')}]`;
const tomlTable = (values: Readonly<Record<string, string>>): string =>
  `{ ${Object.entries(values)
    .map(([k, v]) => `${toml(k)} = ${toml(v)}`)
    .join(', ')} }`;

/** config.toml for an offline run: the scripted provider, no approvals, a read-only sandbox, the MCP servers. */
export function codexConfig(modelUrl: string, servers: Readonly<Record<string, McpServerConfig>>): string {
  const lines = [
    'model = "mock-model"',
    'model_provider = "mock"',
    'approval_policy = "never"',
    'sandbox_mode = "read-only"',
    '',
    '[model_providers.mock]',
    'name = "mock"',
    `base_url = ${toml(`${modelUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
  ];
  for (const [name, server] of Object.entries(servers)) {
    if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`mcp server name \`${name}\` is not a bare toml key`);
    // a bare key: Codex 0.171 starts no server for a quoted table name; `required` makes it wait for the server
    // before the first turn (an optional one still starting is left out of the tools)
    lines.push('', `[mcp_servers.${name}]`, `command = ${toml(server.command)}`, 'required = true');
    lines.push('startup_timeout_sec = 60');
    lines.push(`args = ${tomlArray(server.args ?? [])}`);
    if (server.env !== undefined) lines.push(`env = ${tomlTable(server.env)}`);
    // a tool without a read-only hint would otherwise fail under approval_policy = "never"
    lines.push('default_tools_approval_mode = "approve"');
  }
  return `${lines.join('\n')}\n`;
}

/** Runs `codex exec` once, offline, with fresh HOME and CODEX_HOME, and returns what it did and what the model received. */
export async function runCodexCli(options: CodexCliOptions): Promise<CodexCliResult> {
  const install = await installCodexCli();
  if (!install.ok) throw new Error(`codex cli is not installed: ${install.reason}`);
  return runHost({
    prefix: 'linkgate-codex-',
    script: options.script,
    dialect: responsesDialect,
    toolResultsOf: functionCallOutputsOf,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    async prepare({ home, tmp }, modelUrl) {
      const codexHome = path.join(home, '.codex');
      await mkdir(codexHome, { recursive: true });
      await writeFile(path.join(codexHome, 'config.toml'), codexConfig(modelUrl, options.mcpServers));
      if (options.hooks !== undefined)
        await writeFile(path.join(codexHome, 'hooks.json'), JSON.stringify(options.hooks, null, 2));
      const env = {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: home,
        CODEX_HOME: codexHome,
        TMPDIR: tmp,
        LANG: 'C.UTF-8',
        MOCK_API_KEY: 'offline-test-key',
        NO_COLOR: '1',
        ...options.env,
      };
      // hooks run only once trusted (`/hooks` in the TUI); automation passes the bypass
      const bypass = options.bypassHookTrust === false ? [] : ['--dangerously-bypass-hook-trust'];
      const args = ['exec', '--skip-git-repo-check', '--json', ...bypass, options.prompt];
      const command = { file: install.bin, args, env };
      return options.wrap?.(command) ?? command;
    },
  });
}

/** hooks.json whose hooks for `events` (every tool) run `command`. */
export function codexHooks(command: string, events: readonly string[] = ['PreToolUse', 'PostToolUse']) {
  const hooks: Record<string, unknown[]> = {};
  for (const event of events) hooks[event] = [{ matcher: '.*', hooks: [{ type: 'command', command, timeout: 30 }] }];
  return { hooks };
}

/** hooks.json whose PreToolUse and PostToolUse hooks (every tool) append each event's stdin to `logFile`. */
export function codexRecordingHooks(logFile: string, events: readonly string[] = ['PreToolUse', 'PostToolUse']) {
  return codexHooks(recorderCommand(logFile), events);
}
