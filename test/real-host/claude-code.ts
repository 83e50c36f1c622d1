// The real Claude Code binary, installed on demand and run offline against the scripted model API
// (research note §5): fresh HOME per run, no traffic but to 127.0.0.1, a hard timeout on the process tree.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type HostRunResult, parseJsonLines, runHost } from './host-run.ts';
import { type HostInstall, installPackage, type PackageSpec } from './install-package.ts';
import { type ScriptStep, type ToolResultBlock, toolResultsOf } from './model-api.ts';

/** The Claude Code version the harness pins (verified to run here offline). */
export const claudeCodeVersion = '2.1.332';

/** A stdio MCP server as `--mcp-config` names it. */
export interface McpServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** One Claude Code run: its MCP servers, extra settings (hooks…), the prompt, the model's script and the tools it may use without asking. */
export interface ClaudeCodeOptions {
  mcpServers: Record<string, McpServerConfig>;
  /** written to a file passed with `--settings` (e.g. `{ hooks: … }`) */
  settings?: Record<string, unknown>;
  prompt: string;
  /** the scripted assistant turns answering the agent's requests, in order */
  script: readonly ScriptStep[];
  /** `--allowedTools`, e.g. `['mcp__fixture__links', 'ReadMcpResourceTool']` */
  allowedTools: readonly string[];
  /** hard limit for the whole run; the process tree is killed after it (milliseconds, default 120000) */
  timeoutMs?: number;
  /** extra environment for the host (and so its MCP servers and hooks) */
  env?: Record<string, string>;
}

/** What a Claude Code run produced; `dir` also holds `mcp.json` and `settings.json`. */
export type ClaudeCodeResult = HostRunResult<ToolResultBlock>;

function platformPackage(): string | undefined {
  if (process.platform === 'darwin') return `@anthropic-ai/claude-code-darwin-${process.arch}`;
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return undefined;
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  const musl = header?.glibcVersionRuntime === undefined;
  return `@anthropic-ai/claude-code-linux-${process.arch}${musl ? '-musl' : ''}`;
}

/** Installs the pinned Claude Code native binary into the test cache (once per machine), or says why not. */
export async function installClaudeCode(env: NodeJS.ProcessEnv = process.env): Promise<HostInstall> {
  const name = platformPackage();
  if (name === undefined)
    return { ok: false, reason: `no Claude Code native binary for ${process.platform}-${process.arch}` };
  // the native binary alone: the wrapper package @anthropic-ai/claude-code only picks it and needs Node 22
  const spec: PackageSpec = {
    name,
    version: claudeCodeVersion,
    bin: path.join('node_modules', name, 'claude'),
    versionCheck: { args: ['--version'], expect: `${claudeCodeVersion} (Claude Code)` },
  };
  return installPackage(spec, env);
}

/** Offline environment for a host run (research note §5): only the local model API, no telemetry or updates. */
export function claudeCodeEnv(modelUrl: string, home: string, tmp: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmp,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-offline-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}

/** Runs `claude -p` once, offline, with a fresh HOME, and returns what it did and what the model received. */
export async function runClaudeCode(options: ClaudeCodeOptions): Promise<ClaudeCodeResult> {
  const install = await installClaudeCode();
  if (!install.ok) throw new Error(`claude code is not installed: ${install.reason}`);
  return runHost({
    prefix: 'linkgate-claude-',
    script: options.script,
    toolResultsOf,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    async prepare({ dir, home, tmp }, modelUrl) {
      const mcpFile = path.join(dir, 'mcp.json');
      const settingsFile = path.join(dir, 'settings.json');
      await writeFile(mcpFile, JSON.stringify({ mcpServers: options.mcpServers }, null, 2));
      await writeFile(settingsFile, JSON.stringify(options.settings ?? {}, null, 2));
      const args = ['-p', options.prompt, '--mcp-config', mcpFile, '--strict-mcp-config', '--settings', settingsFile];
      args.push('--allowedTools', options.allowedTools.join(','), '--output-format', 'stream-json', '--verbose');
      return { file: install.bin, args, env: { ...claudeCodeEnv(modelUrl, home, tmp), ...options.env } };
    },
  });
}

function shellCommand(args: readonly string[]): string {
  return args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}

/** The shell command of a hook that appends each event's stdin to `logFile` (our own paths, single-quoted). */
export function recorderCommand(logFile: string): string {
  return shellCommand([process.execPath, path.join(import.meta.dirname, 'record-hook.mjs'), logFile]);
}

/** A scripted hook answer: JSON printed on stdout, text on stderr, exit code (default 0). */
export interface HookAnswer {
  stdout?: Record<string, unknown>;
  stderr?: string;
  exitCode?: number;
}

/** Writes `answers` (keyed `<event> <tool_use_id>`, `<event> <tool_name> <uri>` or `<event> <tool_name>`) to `answersFile` and returns the shell command of a hook that answers from them and records each event to `logFile`. */
export async function answeringCommand(
  answersFile: string,
  answers: Record<string, HookAnswer>,
  logFile: string,
): Promise<string> {
  await writeFile(answersFile, JSON.stringify(answers));
  return shellCommand([process.execPath, path.join(import.meta.dirname, 'answer-hook.mjs'), answersFile, logFile]);
}

/** Settings whose hooks for `events` (every tool) run `command`. */
export function claudeCodeHooks(command: string, events: readonly string[] = ['PreToolUse', 'PostToolUse']) {
  const hooks: Record<string, unknown[]> = {};
  for (const event of events) hooks[event] = [{ matcher: '.*', hooks: [{ type: 'command', command, timeout: 30 }] }];
  return { hooks };
}

/** Settings whose PreToolUse and PostToolUse hooks (every tool) append each event's stdin to `logFile` as JSON Lines. */
export function recordingHooks(logFile: string, events: readonly string[] = ['PreToolUse', 'PostToolUse']) {
  return claudeCodeHooks(recorderCommand(logFile), events);
}

/** The events a recording hook wrote, in order. */
export async function recordedEvents(logFile: string): Promise<Record<string, unknown>[]> {
  return parseJsonLines(await readFile(logFile, 'utf8').catch(() => ''));
}
