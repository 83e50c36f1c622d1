import type { HostDescription } from '../hosts/host-description.ts';
import type { HookHandlerEntry } from '../hosts/hook-groups.ts';
import type { ConfiguredHook } from './doctor-report.ts';
import { shellOperator, shellWords } from './linkgate-invocation.ts';

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
  const notGating =
    host.handlerNotGating(h.handler) ??
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
    ...(blocked === undefined ? {} : { blocked }),
    ...(notGating === undefined ? {} : { notGating }),
    failMode,
    warnings: failMode === 'open' ? [host.failOpenLine] : [],
  };
}
