// The real Claude Code binary, installed on demand and run offline against the scripted model API
// (research note §5): fresh HOME per run, no traffic but to 127.0.0.1, a hard timeout on the process tree.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type HostInstall, installPackage, type PackageSpec } from './install-package.ts';
import { type ModelRequest, type ScriptStep, startModelApi, type ToolResultBlock, toolResultsOf } from './model-api.ts';
import { runProcess } from './run-process.ts';

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

/** What a run produced: the stream-json events, what reached the model, and how the host ended. */
export interface ClaudeCodeResult {
  /** `--output-format stream-json` lines, parsed (unparsable lines as `{ unparsable }`) */
  events: Record<string, unknown>[];
  /** every request the host made to the model API, bodies parsed */
  modelRequests: ModelRequest[];
  /** what the model received for each `tool_use` id */
  toolResults: Record<string, ToolResultBlock>;
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
  /** wall time of the host process (milliseconds) */
  elapsedMs: number;
  /** the run's folder: `home/` (HOME), `work/` (cwd), `tmp/` (TMPDIR) and the config files */
  dir: string;
  /** removes `dir` */
  cleanup(): Promise<void>;
}

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

function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { unparsable: l };
      }
    });
}

/** Runs `claude -p` once, offline, with a fresh HOME, and returns what it did and what the model received. */
export async function runClaudeCode(options: ClaudeCodeOptions): Promise<ClaudeCodeResult> {
  const install = await installClaudeCode();
  if (!install.ok) throw new Error(`claude code is not installed: ${install.reason}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-claude-'));
  const home = path.join(dir, 'home');
  const work = path.join(dir, 'work');
  const tmp = path.join(dir, 'tmp');
  await Promise.all([home, work, tmp].map((d) => mkdir(d, { recursive: true })));
  const mcpFile = path.join(dir, 'mcp.json');
  const settingsFile = path.join(dir, 'settings.json');
  await writeFile(mcpFile, JSON.stringify({ mcpServers: options.mcpServers }, null, 2));
  await writeFile(settingsFile, JSON.stringify(options.settings ?? {}, null, 2));
  const model = await startModelApi(options.script);
  try {
    const run = await runProcess(
      install.bin,
      [
        '-p',
        options.prompt,
        '--mcp-config',
        mcpFile,
        '--strict-mcp-config',
        '--settings',
        settingsFile,
        '--allowedTools',
        options.allowedTools.join(','),
        '--output-format',
        'stream-json',
        '--verbose',
      ],
      {
        env: { ...claudeCodeEnv(model.url, home, tmp), ...options.env },
        cwd: work,
        timeoutMs: options.timeoutMs ?? 120_000,
      },
    );
    return {
      events: parseLines(run.stdout),
      modelRequests: model.requests,
      toolResults: toolResultsOf(model.requests),
      exitCode: run.exitCode,
      stderr: run.timedOut ? `${run.stderr}\nkilled after ${options.timeoutMs ?? 120_000} ms` : run.stderr,
      timedOut: run.timedOut,
      elapsedMs: run.elapsedMs,
      dir,
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  } finally {
    await model.close();
  }
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
  return parseLines(await readFile(logFile, 'utf8').catch(() => ''));
}
