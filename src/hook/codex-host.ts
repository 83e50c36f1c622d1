import { parseClaudeShaped, preToolUseDeny } from './claude-code-host.ts';
import type { HostAdapter } from './host-adapter.ts';

/**
 * Codex CLI: Claude-shaped events; a deny uses `permissionDecision`. Codex cannot edit a tool result
 * (`updatedMCPToolOutput` fails open), so a withheld result is replaced as a whole by `decision: "block"`, whose
 * reason becomes what the model receives: the output with its withheld items swapped for notices.
 */
export const codexHost: HostAdapter = {
  parse: parseClaudeShaped,
  format(answer) {
    if (answer.kind === 'deny') return preToolUseDeny(answer.reason);
    if (answer.kind === 'replace') {
      const text = typeof answer.output === 'string' ? answer.output : JSON.stringify(answer.output);
      return JSON.stringify({ decision: 'block', reason: text });
    }
    return '';
  },
};
