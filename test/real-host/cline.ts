// Cline CLI (npm `cline`, whose platform package `@cline/cli-linux-x64` holds a binary with Bun inside: Node 20 is
// fine), installed on demand and run offline against the scripted model API in the Chat Completions dialect: a fresh
// HOME, `cline auth -P openai-compatible --baseurl` into an isolated data folder (`--data-dir`, which also keeps the
// run local: no hub daemon is started or reused), the MCP servers in that folder's settings/cline_mcp_settings.json and
// the hook files in the workspace's .clinerules/hooks/.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chatCompletionsDialect, type ToolMessage, toolMessagesOf } from './chat-completions-model-api.ts';
import type { McpServerConfig } from './claude-code.ts';
import { type HostRunResult, runHost } from './host-run.ts';
import { type HostInstall, installPackage } from './install-package.ts';
import type { ScriptStep } from './model-api.ts';
import { runProcess } from './run-process.ts';

/** The Cline CLI version the harness pins (its platform binary; checked to run here offline). */
export const clineVersion = '3.0.65';

/** One Cline run: its MCP servers, hook files by name (`PreToolUse` → script text), the prompt and the model's script. */
export interface ClineOptions {
  mcpServers: Record<string, McpServerConfig>;
  /** executable files written into the workspace's `.clinerules/hooks/` */
  hookFiles?: Record<string, string>;
  prompt: string;
  /** the scripted model turns; MCP tools are named as Cline offers them (`<server>__<tool>`) */
  script: readonly ScriptStep[];
  /** hard limit for the whole run (milliseconds, default 120000) */
  timeoutMs?: number;
}

/** What a Cline run produced; `toolResults` are the `tool` messages the model received, by call id. */
export type ClineResult = HostRunResult<ToolMessage>;

/** Installs the pinned Cline CLI binary into the test cache (once per machine), or says why not. */
export function installCline(env: NodeJS.ProcessEnv = process.env): Promise<HostInstall> {
  return installPackage(
    {
      name: '@cline/cli-linux-x64',
      version: clineVersion,
      bin: path.join('node_modules', '@cline', 'cli-linux-x64', 'bin', 'cline'),
      versionCheck: { args: ['--version'], expect: clineVersion },
    },
    env,
  );
}

/** Runs `cline --json PROMPT` once, offline, and returns what it did and what the model received. */
export async function runCline(options: ClineOptions): Promise<ClineResult> {
  const install = await installCline();
  if (!install.ok) throw new Error(`cline is not installed: ${install.reason}`);
  return runHost({
    prefix: 'linkgate-cline-',
    script: options.script,
    dialect: chatCompletionsDialect,
    toolResultsOf: toolMessagesOf,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    async prepare({ home, work, tmp, dir }, modelUrl) {
      const data = path.join(dir, 'cline-data');
      await mkdir(path.join(data, 'settings'), { recursive: true });
      // `timeout`: seconds Cline waits for a server's `initialize` (3 by default, short for a tsx start on a busy machine)
      const mcpServers = Object.fromEntries(
        Object.entries(options.mcpServers).map(([name, server]) => [name, { ...server, timeout: 60 }]),
      );
      await writeFile(path.join(data, 'settings', 'cline_mcp_settings.json'), JSON.stringify({ mcpServers }, null, 2));
      const hooks = path.join(work, '.clinerules', 'hooks');
      await mkdir(hooks, { recursive: true });
      for (const [name, text] of Object.entries(options.hookFiles ?? {})) {
        await writeFile(path.join(hooks, name), text);
        await chmod(path.join(hooks, name), 0o755);
      }
      const env = {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: home,
        TMPDIR: tmp,
        LANG: 'C.UTF-8',
        NO_COLOR: '1',
        CLINE_NO_AUTO_UPDATE: '1',
      };
      const auth = await runProcess(
        install.bin,
        [
          'auth',
          '-p',
          'openai-compatible',
          '-k',
          'offline',
          '-m',
          'scripted',
          '-b',
          `${modelUrl}/v1`,
          '--data-dir',
          data,
        ],
        { env, cwd: work, timeoutMs: 60_000 },
      );
      if (auth.exitCode !== 0) throw new Error(`cline auth failed: ${auth.stderr || auth.stdout}`);
      return {
        file: install.bin,
        args: ['--json', '--data-dir', data, '-c', work, options.prompt],
        env,
      };
    },
  });
}

/** A hook file (`#!/bin/sh`) that appends its stdin to `logFile` as one line and answers nothing. */
export function recordingHookFile(logFile: string): string {
  return `#!/bin/sh\nexec '${process.execPath}' '${path.join(import.meta.dirname, 'record-hook.mjs')}' '${logFile}'\n`;
}
