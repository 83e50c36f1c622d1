import { copilotCli } from '../hosts/copilot-cli.ts';
import type { HookCall, HookEvent } from './hook-event.ts';
import type { HostAdapter } from './host-adapter.ts';
import { requiredObject, requiredString } from './host-event-fields.ts';

// Copilot CLI's camelCase `preToolUse` event (cli-hooks-reference.md; observed with @github/copilot@1.0.102):
// `{sessionId, timestamp, cwd, toolName, toolArgs}`; the only call the gate judges before it runs is `web_fetch {url}`

function call(name: string, args: unknown): HookCall {
  if (name === copilotCli.tools.webFetch) {
    const fields = requiredObject(args, 'toolArgs');
    return { kind: 'web-fetch', urls: [requiredString(fields['url'], 'toolArgs.url')] };
  }
  return { kind: 'other', name };
}

// `permissionDecisionReason` is "shown to the agent" and required with a deny
const deny = (reason: string) => JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: reason });

/**
 * Copilot CLI: a refused web fetch is `permissionDecision: "deny"`; allow is no answer (never a grant). A hook that fails
 * answers a deny too, since Copilot CLI skips a hook that exits non-zero.
 */
export const copilotCliHost: HostAdapter = {
  parse(event) {
    // a camelCase event names no event: `toolName` without `toolResult` is the `preToolUse` linkgate's set-up asks for
    if (event['toolResult'] !== undefined || event['error'] !== undefined) return null;
    const parsed: HookEvent = {
      session: requiredString(event['sessionId'], 'sessionId'),
      phase: 'pre',
      toolUseId: null,
      call: call(requiredString(event['toolName'], 'toolName'), event['toolArgs']),
      savedDir: null,
    };
    return parsed;
  },
  format(answer) {
    return answer.kind === 'deny' ? deny(answer.reason) : '';
  },
  failed: (failure) => deny(`linkgate hook failed: ${failure}`),
};
