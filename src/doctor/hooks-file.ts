import { isRecord } from '../decision/json-value.ts';
import type { HostDescription } from '../hosts/host-description.ts';
import type { HookHandlerEntry } from '../hosts/hook-groups.ts';
import { configuredHook } from './configured-hook.ts';
import type { ConfiguredHook } from './doctor-report.ts';
import { readConfigFile } from './read-config-file.ts';

/** A handler as its host runs it (its command, its matcher where the host reads one), or undefined when the host runs no command for it. */
export type HandlerCommand = (
  handler: Record<string, unknown>,
) => Pick<HookHandlerEntry, 'command' | 'matcher'> | undefined;

/**
 * The command handlers of a flat hooks file (`{hooks: {EVENT: [handler…]}}`: Windsurf, Copilot CLI, Cursor) for each
 * event of `host`, judged by `configuredHook`; a file that cannot be read or parsed adds its problem to `problems`.
 */
export async function readHooksFile(
  host: HostDescription,
  file: string,
  command: HandlerCommand,
  problems: string[],
): Promise<ConfiguredHook[]> {
  const read = await readConfigFile(file);
  if (read.kind === 'problem') problems.push(read.message);
  const block = read.kind === 'read' && isRecord(read.value['hooks']) ? read.value['hooks'] : {};
  const hooks: ConfiguredHook[] = [];
  for (const [event, phase] of Object.entries(host.events)) {
    const list = block[event];
    if (!Array.isArray(list)) continue;
    for (const handler of list as unknown[]) {
      if (!isRecord(handler)) continue;
      const runs = command(handler);
      if (runs !== undefined) hooks.push(configuredHook(host, file, { event, phase, ...runs, handler }));
    }
  }
  return hooks;
}
