// Every real part the real-host project runs, pinned in one list: the three host CLIs and the agent frameworks. The
// project's global set-up installs them all into the test cache before any test starts (install-real-parts.ts), so
// no install runs inside a test and a missing part is named once; each suite still checks its own part.
import type { FrameworkSpec } from '../frameworks/framework-package.ts';
import { installClaudeCode } from './claude-code.ts';
import { installCline } from './cline.ts';
import { installCodexCli } from './codex-cli.ts';
import { installCopilotCli } from './copilot-cli.ts';
import { installGeminiCli } from './gemini-cli.ts';
import type { HostInstall } from './install-package.ts';

/** The host CLIs, each with the installer its suites call. */
export const realHosts: Readonly<Record<string, (env?: NodeJS.ProcessEnv) => Promise<HostInstall>>> = {
  'claude code': installClaudeCode,
  'codex cli': installCodexCli,
  'gemini cli': installGeminiCli,
  cline: installCline,
  'copilot cli': installCopilotCli,
};

/** The agent frameworks the framework suites drive, at exact versions (each with the peers npm installs beside it). */
export const realFrameworks = {
  aiSdk: { name: 'ai', version: '7.0.173', entry: 'node_modules/ai/dist/index.js', with: ['@ai-sdk/mcp@2.0.99'] },
  claudeAgentSdk: {
    name: '@anthropic-ai/claude-agent-sdk',
    version: '0.3.336',
    entry: 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs',
  },
  langchain: {
    name: '@langchain/mcp-adapters',
    version: '1.1.4',
    entry: 'node_modules/@langchain/mcp-adapters/dist/index.js',
  },
  mastra: {
    name: '@mastra/mcp',
    version: '2.0.0',
    entry: 'node_modules/@mastra/mcp/dist/index.js',
    with: ['@mastra/core@1.71.0'],
  },
  openaiAgents: { name: '@openai/agents', version: '0.20.0', entry: 'node_modules/@openai/agents/dist/index.mjs' },
  // its platform package holds the Copilot runtime the SDK starts
  copilotSdk: {
    name: '@github/copilot-sdk',
    version: '1.0.14',
    entry: 'node_modules/@github/copilot-sdk/dist/index.js',
  },
} as const satisfies Record<string, FrameworkSpec>;
