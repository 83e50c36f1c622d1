// Gemini CLI (a plain Node package), installed on demand and run offline against the scripted model API in its
// Gemini dialect (research note §5): fresh HOME whose .gemini/settings.json holds the MCP servers and hooks.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FunctionResponsePart, functionResponsesOf, geminiDialect } from './gemini-model-api.ts';
import { type HostInstall, installPackage } from './install-package.ts';
import { type McpServerConfig, recorderCommand } from './claude-code.ts';
import { type ModelRequest, type ScriptStep, startModelApi } from './model-api.ts';
import { runProcess } from './run-process.ts';

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

/** What a run produced: the stream-json events, what reached the model, and how the host ended. */
export interface GeminiCliResult {
  /** `--output-format stream-json` lines, parsed (unparsable lines as `{ unparsable }`) */
  events: Record<string, unknown>[];
  /** every request the host made to the model API, bodies parsed */
  modelRequests: ModelRequest[];
  /** what the model received for each function call, by call id (or name) */
  toolResults: Record<string, FunctionResponsePart>;
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
  /** wall time of the host process (milliseconds) */
  elapsedMs: number;
  /** the run's folder: `home/` (HOME), `work/` (cwd), `tmp/` (TMPDIR) */
  dir: string;
  /** removes `dir` */
  cleanup(): Promise<void>;
}

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

function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { unparsable: l };
      }
    });
}

/** Runs `gemini -p --yolo` once, offline, with a fresh HOME, and returns what it did and what the model received. */
export async function runGeminiCli(options: GeminiCliOptions): Promise<GeminiCliResult> {
  const install = await installGeminiCli();
  if (!install.ok) throw new Error(`gemini cli is not installed: ${install.reason}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-gemini-'));
  const home = path.join(dir, 'home');
  const work = path.join(dir, 'work');
  const tmp = path.join(dir, 'tmp');
  await Promise.all([path.join(home, '.gemini'), work, tmp].map((d) => mkdir(d, { recursive: true })));
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    ...options.settings,
    mcpServers: options.mcpServers,
  };
  await writeFile(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  const model = await startModelApi(options.script, geminiDialect);
  const timeoutMs = options.timeoutMs ?? 120_000;
  try {
    const run = await runProcess(
      process.execPath,
      [install.bin, '-p', options.prompt, '--yolo', '--output-format', 'stream-json'],
      {
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: home,
          TMPDIR: tmp,
          LANG: 'C.UTF-8',
          GOOGLE_GEMINI_BASE_URL: model.url,
          GEMINI_API_KEY: 'offline-test-key',
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          GEMINI_TELEMETRY_ENABLED: 'false',
          NO_COLOR: '1',
          ...options.env,
        },
        cwd: work,
        timeoutMs,
      },
    );
    return {
      events: parseLines(run.stdout),
      modelRequests: model.requests,
      toolResults: functionResponsesOf(model.requests),
      exitCode: run.exitCode,
      stderr: run.timedOut ? `${run.stderr}\nkilled after ${timeoutMs} ms` : run.stderr,
      timedOut: run.timedOut,
      elapsedMs: run.elapsedMs,
      dir,
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  } finally {
    await model.close();
  }
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
