import type { HostDescription } from '../hosts/host-description.ts';
import type { HookHandlerEntry } from '../hosts/hook-groups.ts';
import type { ConfiguredHook } from './doctor-report.ts';
import { hookTimeoutSeconds } from '../hook/hook-settings.ts';
import { shellWords } from './hook-variables.ts';
import { shellOperator } from './linkgate-invocation.ts';

// the hook's own deadline, a third of the timeout it is printed with (`hookDeadlineMs` of the hook command): a slow
// event is answered, failing closed, by then, counted from when the hook's code has loaded
const hookDeadlineSeconds = hookTimeoutSeconds / 3;

/**
 * Seconds a host must give a hook that fails open: its deadline, plus what the host's clock counts besides (the shell
 * and node starting and loading the hook before its deadline runs, the fail-closed answer, the records line and the
 * exit after it) on a loaded machine. Under it a slow event can be cut off before the hook's answer; the printed
 * timeout (`hookTimeoutSeconds`) is twice it.
 */
export const hookAnswerSeconds = hookDeadlineSeconds + 5;

/**
 * A handler of a host's hooks block as doctor judges it: the words it runs, whether the host will run it (`blocked`),
 * whether it gates when it runs (the host's `handlerNotGating`) and how the host fails when it cannot answer.
 */
export function configuredHook(
  host: HostDescription,
  file: string,
  h: Pick<HookHandlerEntry, 'event' | 'phase' | 'matcher' | 'command' | 'args' | 'handler'>,
  blocked?: string,
): ConfiguredHook {
  const failMode = host.failMode(h.handler);
  // a command line the shell runs with an operator in it (`|| true`, `&`, `> /dev/null`) runs more than linkgate
  const operator = h.args === undefined ? shellOperator(h.command) : undefined;
  // a host that lets a result through when its post handler cannot answer (Claude Code) fails open there whatever
  // the handler's settings: its timeout must leave the hook time to answer, as a handler that fails open's must
  const passesOnFailure = failMode === 'open' || (h.phase === 'post' && host.resultPassesOnFailure === true);
  const notGating =
    host.handlerNotGating(h.handler) ??
    (passesOnFailure ? shortTimeout(host, h.handler) : undefined) ??
    (operator === undefined
      ? undefined
      : `its command line has the shell operator \`${operator === '\n' ? '\\n' : operator}\`: what reaches the host is not only linkgate's answer`);
  return {
    host: host.name,
    file,
    event: h.event,
    phase: h.phase,
    ...(h.matcher === undefined ? {} : { matcher: h.matcher }),
    command: h.command,
    argv: h.args === undefined ? shellWords(h.command) : [h.command, ...h.args],
    ...(h.args === undefined ? { viaShell: true as const } : {}),
    ...(blocked === undefined ? {} : { blocked }),
    ...(notGating === undefined ? {} : { notGating }),
    failMode,
    warnings: failMode === 'open' ? [host.failOpenLine] : [],
  };
}

/**
 * Why a handler that fails open is no gate for its timeout: the host gives it less than `hookAnswerSeconds`, so
 * an event the hook may take that long over (a crafted result, a loaded machine) is cut off by the host, which then
 * lets the call through. The timeout's field and unit are the ones the host's printed handler uses.
 */
function shortTimeout(host: HostDescription, handler: Readonly<Record<string, unknown>>): string | undefined {
  for (const [key, perSecond] of Object.entries(host.setup.handler('', 1))) {
    const given = handler[key];
    if (typeof perSecond !== 'number' || perSecond <= 0 || typeof given !== 'number') continue;
    const seconds = given / perSecond;
    if (seconds < hookAnswerSeconds)
      return `${host.name} gives it ${seconds} s (\`${key}\`), less than the ${hookAnswerSeconds} s it may need to answer (its own ${hookDeadlineSeconds} s deadline, its start and its answer): ${host.name} cuts a slow event off and lets the call through`;
  }
  return undefined;
}
