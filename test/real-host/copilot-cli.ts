// GitHub Copilot CLI (npm `@github/copilot`, whose platform package `@github/copilot-linux-x64` holds a single
// executable), installed on demand and run offline against the scripted model API in the Chat Completions dialect
// through its BYOK provider (`COPILOT_PROVIDER_BASE_URL`, no GitHub sign-in): a fresh HOME whose
// .copilot/mcp-config.json holds the MCP servers, the hooks in the workspace's .github/hooks/linkgate.json.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chatCompletionsDialect, type ToolMessage, toolMessagesOf } from './chat-completions-model-api.ts';
import type { McpServerConfig } from './claude-code.ts';
import { type HostRunResult, runHost } from './host-run.ts';
import { type HostInstall, installPackage } from './install-package.ts';
import type { ScriptStep } from './model-api.ts';

/** The Copilot CLI version the harness pins (its platform binary; checked to run here offline). */
export const copilotCliVersion = '1.0.102';

/** One Copilot CLI run: its MCP servers, the hooks file's content, the prompt and the model's script. */
export interface CopilotCliOptions {
  mcpServers: Record<string, McpServerConfig>;
  /** written as the workspace's `.github/hooks/linkgate.json` */
  hooks?: Record<string, unknown>;
  prompt: string;
  /** the scripted model turns; MCP tools are named as Copilot offers them (`<server>-<tool>`) */
  script: readonly ScriptStep[];
  /** hard limit for the whole run (milliseconds, default 120000) */
  timeoutMs?: number;
}

/** What a Copilot CLI run produced; `toolResults` are the `tool` messages the model received, by call id. */
export type CopilotCliResult = HostRunResult<ToolMessage>;

/** Installs the pinned Copilot CLI binary into the test cache (once per machine), or says why not. */
export function installCopilotCli(env: NodeJS.ProcessEnv = process.env): Promise<HostInstall> {
  return installPackage(
    {
      name: '@github/copilot-linux-x64',
      version: copilotCliVersion,
      bin: path.join('node_modules', '@github', 'copilot-linux-x64', 'copilot'),
      versionCheck: { args: ['--version'], expect: copilotCliVersion },
    },
    env,
  );
}

/** Runs `copilot -p PROMPT --allow-all-tools` once, offline, and returns what it did and what the model received. */
export async function runCopilotCli(options: CopilotCliOptions): Promise<CopilotCliResult> {
  const install = await installCopilotCli();
  if (!install.ok) throw new Error(`copilot cli is not installed: ${install.reason}`);
  return runHost({
    prefix: 'linkgate-copilot-',
    script: options.script,
    dialect: chatCompletionsDialect,
    toolResultsOf: toolMessagesOf,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    async prepare({ home, work, tmp }, modelUrl) {
      await mkdir(path.join(home, '.copilot'), { recursive: true });
      const mcpServers = Object.fromEntries(
        Object.entries(options.mcpServers).map(([name, server]) => [name, { type: 'local', ...server, tools: ['*'] }]),
      );
      await writeFile(path.join(home, '.copilot', 'mcp-config.json'), JSON.stringify({ mcpServers }, null, 2));
      if (options.hooks !== undefined) {
        await mkdir(path.join(work, '.github', 'hooks'), { recursive: true });
        await writeFile(path.join(work, '.github', 'hooks', 'linkgate.json'), JSON.stringify(options.hooks, null, 2));
      }
      const env = {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: home,
        TMPDIR: tmp,
        LANG: 'C.UTF-8',
        NO_COLOR: '1',
        // BYOK: the scripted API in place of GitHub's model routing, no sign-in (`copilot help environment`)
        COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
        COPILOT_PROVIDER_API_KEY: 'offline',
        COPILOT_MODEL: 'scripted',
        COPILOT_AUTO_UPDATE: 'false',
        // exactly "true" also trusts the working directory, which loads its hooks and MCP servers
        COPILOT_ALLOW_ALL: 'true',
      };
      return { file: install.bin, args: ['-p', options.prompt, '--allow-all-tools', '--output-format', 'json'], env };
    },
  });
}
