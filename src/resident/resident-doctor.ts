// What `linkgate doctor` says about a resident hook in Claude Code's settings (docs/resident-hook.md): each HTTP
// handler that posts to `/claude-code` on loopback is checked against the conditions that make it as safe as the
// command hook, from where doctor runs (as the gated user): the port is one the gated user cannot bind, the socket
// listening on it is not the gated user's, the gated user is not root, the secret header is configured and a failure
// blocks. Each condition that does not hold is one line; none means the hook is as safe as the command hook.
import { isRecord } from '../decision/json-value.ts';
import { claudeCode } from '../hosts/claude-code.ts';
import type { HookPhase } from '../hosts/host-description.ts';
import { listenerUid, portProblem, unprivilegedPortStart } from './resident-conditions.ts';
import { residentPath } from './resident-server.ts';
import { isSecretHeader } from './resident-setup.ts';

/** What the checks read from the machine (tests give their own). */
export interface ResidentProbe {
  /** the uid doctor runs as: the gated user */
  gatedUid: number;
  portStart: () => number | string;
  listener: (port: number) => number | undefined;
}

/** The machine as it is. */
export function machineProbe(): ResidentProbe {
  return { gatedUid: process.getuid?.() ?? -1, portStart: () => unprivilegedPortStart(), listener: listenerUid };
}

/** A resident HTTP handler of a hooks block: where it is, the handler, and each condition that does not hold. */
export interface ResidentHandlerEntry {
  readonly event: string;
  readonly phase: HookPhase;
  readonly matcher?: string;
  /** the url it posts to */
  readonly url: string;
  readonly handler: Readonly<Record<string, unknown>>;
  readonly groupIndex: number;
  readonly handlerIndex: number;
  /** one lowercase line per condition that does not hold (none: as safe as the command hook) */
  readonly problems: readonly string[];
}

/** Every resident HTTP handler (`type: "http"`, a loopback url to `/claude-code`) of a Claude Code `hooks` block, judged. */
export function residentHandlers(hooks: unknown, probe: ResidentProbe = machineProbe()): ResidentHandlerEntry[] {
  if (!isRecord(hooks)) return [];
  const found: ResidentHandlerEntry[] = [];
  for (const [event, phase] of Object.entries(claudeCode.events)) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, groupIndex) => {
      if (!isRecord(group) || !Array.isArray(group['hooks'])) return;
      const matcher = typeof group['matcher'] === 'string' ? group['matcher'] : undefined;
      group['hooks'].forEach((handler: unknown, handlerIndex) => {
        // claude code runs a handler by its `type`: an http entry that also carries a `command` posts, and runs nothing
        if (!isRecord(handler) || handler['type'] !== 'http' || typeof handler['url'] !== 'string') return;
        const url = residentUrlOf(handler['url']);
        if (url === undefined) return;
        const problems = handlerProblems(handler, url, probe);
        found.push({
          event,
          phase,
          ...(matcher === undefined ? {} : { matcher }),
          url: handler['url'],
          handler,
          groupIndex,
          handlerIndex,
          problems,
        });
      });
    });
  }
  return found;
}

/**
 * One line per resident HTTP hook of a Claude Code settings `hooks` block (from `file`) whose conditions do not
 * hold, each naming the file, the event and the url; `only` picks the handlers said (default: all).
 */
export function residentHookProblems(
  file: string,
  hooks: unknown,
  probe: ResidentProbe = machineProbe(),
  only: (entry: ResidentHandlerEntry) => boolean = () => true,
): string[] {
  return residentHandlers(hooks, probe)
    .filter(only)
    .flatMap((entry) =>
      entry.problems.map(
        (why) =>
          `\`${file}\`: the ${entry.event} http hook \`${entry.url}\` is not as safe as the command hook: ${why}`,
      ),
    );
}

// a linkgate resident url: a loopback host and the resident path (`localhost` too: it is checked as a problem)
function residentUrlOf(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return loopback && url.pathname === residentPath ? url : undefined;
}

function handlerProblems(handler: Record<string, unknown>, url: URL, probe: ResidentProbe): string[] {
  const problems: string[] = [];
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1')
    problems.push('the server listens on `http://127.0.0.1` only: another address is not the one it holds');
  const port = Number(url.port === '' ? 80 : url.port);
  const portLine = portProblem(port, probe.portStart());
  if (portLine !== undefined) problems.push(portLine);
  if (probe.gatedUid === 0) problems.push('the gated user is root: it can take any port and stop any server');
  const owner = probe.listener(port);
  if (owner === undefined)
    problems.push(`nothing listens on port ${port}: every read is refused until the server runs`);
  // the socket's owner (root for a server that bound the port as root and then became its service user)
  else if (owner === probe.gatedUid && owner !== 0)
    problems.push(`port ${port} is held by the gated user: it decides every read`);
  if (handler['onFailure'] !== 'block')
    problems.push('no `"onFailure": "block"`: a server that is down or answers garbage lets the read go ahead');
  if (handler['async'] === true || handler['asyncRewake'] === true)
    problems.push('runs in the background (`async`): claude code lets the call go before it answers');
  const headers = isRecord(handler['headers']) ? handler['headers'] : {};
  const secret = Object.entries(headers).find(([name]) => isSecretHeader(name))?.[1];
  if (typeof secret !== 'string' || secret.trim() === '')
    problems.push('no `X-Linkgate-Secret` header: every request is refused, and the set-up is not the printed one');
  else {
    const variable = /^\$\{?([A-Z_][A-Z0-9_]*)\}?$/.exec(secret.trim())?.[1];
    const allowed = Array.isArray(handler['allowedEnvVars']) ? handler['allowedEnvVars'] : [];
    if (variable !== undefined && !allowed.includes(variable))
      problems.push(`\`$${variable}\` is not in \`allowedEnvVars\`: claude code sends the header empty`);
  }
  return problems;
}
