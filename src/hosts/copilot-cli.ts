import { join } from 'node:path';
import type { HostDescription } from './host-description.ts';

// GitHub Copilot CLI (github/docs content/copilot/reference/copilot-cli-reference/cli-hooks-reference.md; the npm
// `@github/copilot@1.0.102` binary run offline here with a BYOK provider, test/real-host/copilot-cli-hook.test.ts):
// hooks are `{version: 1, hooks: {preToolUse: [{type: "command", bash, timeoutSec}]}}` in the repository's
// `.github/hooks/*.json`; a camelCase event name gets `{sessionId, timestamp, cwd, toolName, toolArgs}`, and a
// `preToolUse` answer `{permissionDecision: "deny", permissionDecisionReason}` blocks the call. "Hook failures (non-zero
// exit codes or timeouts) are logged and skipped — they never block"; a command hook's `postToolUse` cannot replace a
// result (only the SDK's programmatic hooks can). Copilot CLI has no resource read tool (github/copilot-cli#1803) and
// hands the model an MCP result's text only (observed: its `resource_link` items are dropped).

/** Copilot CLI's home: `$COPILOT_HOME`, else ~/.copilot (mcp-config.json, settings). */
export function copilotHome(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const own = env['COPILOT_HOME'];
  return own === undefined || own === '' ? join(home, '.copilot') : own;
}

/** The folder of a repository's Copilot hook files (`*.json`). */
export function copilotHooksFolder(cwd: string): string {
  return join(cwd, '.github', 'hooks');
}

/** Copilot CLI's hooks: `preToolUse` only (its post hook cannot change a result); a failing hook never blocks. */
export const copilotCli: HostDescription = {
  name: 'copilot-cli',
  label: 'copilot cli',
  events: { preToolUse: 'pre' },
  tools: {
    // the docs' "tool names for hook matching": its own fetch of a url
    webFetch: 'web_fetch',
    // observed: `<server>-<tool>`; both parts may hold `-`, so a name cannot be split back (the hook needs no server:
    // it judges no MCP call before it runs)
    everyMcpTool: '.+-.+',
    mcpTool: (server, tool) => `${server}-${tool}`,
    mcpParts: () => null,
  },
  // `preToolUse` takes no matcher: every hook runs for every tool
  matcherCovers: () => true,
  handlerNotGating: () => undefined,
  failMode: () => 'open',
  failOpenLine: 'copilot cli lets the call through when the hook fails or times out (no setting closes it)',
  setup: {
    file: "the repository's .github/hooks/linkgate.json",
    handler: (command, timeoutSeconds) => ({ type: 'command', bash: command, timeoutSec: timeoutSeconds }),
    matcher: () => undefined,
    shape: 'handlers',
    extra: { version: 1 },
    // ~/.copilot/mcp-config.json
    serversKey: 'mcpServers',
    hooksAlone:
      'these hooks alone fail open and cannot withhold a result: copilot cli lets a call through when its hook fails, and a command hook cannot change a tool result',
  },
  renderedLink: null,
};
