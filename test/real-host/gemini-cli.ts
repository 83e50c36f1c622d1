// Gemini CLI (a plain Node package), installed on demand and run offline against the scripted model API in its
// Gemini dialect (research note §5): fresh HOME whose .gemini/settings.json holds the MCP servers and hooks.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FunctionResponsePart, functionResponsesOf, geminiDialect } from './gemini-model-api.ts';
import { type HostRunResult, runHost } from './host-run.ts';
import { type HostInstall, installPackage } from './install-package.ts';
import { type McpServerConfig, recorderCommand } from './claude-code.ts';
import { type ScriptStep } from './model-api.ts';

/** The Gemini CLI version the harness pins (verified to run here offline on Node 20). */
export const geminiCliVersion = '0.61.0';

/** One Gemini CLI run: its MCP servers, extra settings (hooks…), the prompt and the model's script. */
export interface GeminiCliOptions {
  mcpServers: Record<string, McpServerConfig>;
  /** merged into `~/.gemini/settings.json` (e.g. `{ hooks: … }`) */
  settings?: Record<string, unknown>;
  prompt: string;
  /** the scripted model turns; tools are named as Gemini offers them (`mcp_<server>_<tool>`, `read_mcp_resource`) */
  script: readonly ScriptStep[];
  /** hard limit for the whole run; the process tree is killed after it (milliseconds, default 120000) */
  timeoutMs?: number;
  /** extra environment for the host (and so its MCP servers and hooks) */
  env?: Record<string, string>;
}

/** What a Gemini CLI run produced; `toolResults` are keyed by call id (or name). */
export type GeminiCliResult = HostRunResult<FunctionResponsePart>;

/** Installs the pinned Gemini CLI into the test cache (once per machine), or says why not. */
export function installGeminiCli(env: NodeJS.ProcessEnv = process.env): Promise<HostInstall> {
  return installPackage(
    {
      name: '@google/gemini-cli',
      version: geminiCliVersion,
      bin: path.join('node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js'),
      versionCheck: { args: ['--version'], expect: geminiCliVersion },
      viaNode: true,
    },
    env,
  );
}

/** Runs `gemini -p --yolo` once, offline, with a fresh HOME, and returns what it did and what the model received. */
export async function runGeminiCli(options: GeminiCliOptions): Promise<GeminiCliResult> {
  const install = await installGeminiCli();
  if (!install.ok) throw new Error(`gemini cli is not installed: ${install.reason}`);
  return runHost({
    prefix: 'linkgate-gemini-',
    script: options.script,
    dialect: geminiDialect,
    toolResultsOf: functionResponsesOf,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    async prepare({ home, tmp }, modelUrl) {
      const settings = {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        ...options.settings,
        mcpServers: options.mcpServers,
      };
      await mkdir(path.join(home, '.gemini'), { recursive: true });
      await writeFile(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
      const env = {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: home,
        TMPDIR: tmp,
        LANG: 'C.UTF-8',
        GOOGLE_GEMINI_BASE_URL: modelUrl,
        GEMINI_API_KEY: 'offline-test-key',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        GEMINI_TELEMETRY_ENABLED: 'false',
        NO_COLOR: '1',
        ...options.env,
      };
      return {
        file: process.execPath,
        args: [install.bin, '-p', options.prompt, '--yolo', '--output-format', 'stream-json'],
        env,
      };
    },
  });
}

/** Settings whose hooks for `events` (every tool) run `command`. */
export function geminiCliHooks(command: string, events: readonly string[] = ['BeforeTool', 'AfterTool']) {
  const hooks: Record<string, unknown[]> = {};
  for (const event of events)
    hooks[event] = [{ matcher: '.*', hooks: [{ type: 'command', name: 'scripted', command, timeout: 30_000 }] }];
  return { hooks };
}

/** Settings whose BeforeTool and AfterTool hooks (every tool) append each event's stdin to `logFile` as JSON Lines. */
export function geminiRecordingHooks(logFile: string, events: readonly string[] = ['BeforeTool', 'AfterTool']) {
  return geminiCliHooks(recorderCommand(logFile), events);
}
