import type { HostDescription } from '../hosts/host-description.ts';
import type { HookHandlerEntry } from '../hosts/hook-groups.ts';
import type { ConfiguredHook } from './doctor-report.ts';
import { shellWords } from './linkgate-invocation.ts';

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
  const notGating = host.handlerNotGating(h.handler);
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
