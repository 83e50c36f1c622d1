import type { HookPhase, HostDescription } from './host-description.ts';

export type { HookSetup } from './host-description.ts';

/** The phase of hook event `event` for `host`, from its events and the others it reads; undefined for any other. */
export function eventPhase(host: HostDescription, event: string): HookPhase | undefined {
  if (Object.hasOwn(host.events, event)) return host.events[event];
  return host.otherEvents !== undefined && Object.hasOwn(host.otherEvents, event) ? host.otherEvents[event] : undefined;
}

/** The first event of `host` a gate needs for `phase` (`PreToolUse` for `pre`), undefined when it has none. */
export function eventOf(host: HostDescription, phase: HookPhase): string | undefined {
  return Object.keys(host.events).find((event) => host.events[event] === phase);
}

/**
 * The tool names a gate must see in `phase`: before a call, the read (and the host's web fetch); after it, the read,
 * the lists and every MCP tool (links returned); after a failed call, the read.
 */
export function gateTools(host: HostDescription, phase: HookPhase): string[] {
  const { read, list, listDir, webFetch, everyMcpTool } = host.tools;
  const named = (...names: (string | undefined)[]) => names.filter((name): name is string => name !== undefined);
  if (phase === 'pre') return named(read, webFetch);
  if (phase === 'failure') return named(read);
  return [...named(read, list, listDir), everyMcpTool];
}

/** The hooks block that runs `command` on every event `host`'s gate needs (what `--print-config` prints). */
export function printedHooks(host: HostDescription, command: string, timeoutSeconds: number): Record<string, unknown> {
  const { setup } = host;
  if (setup.print !== undefined) return setup.print(command, timeoutSeconds);
  const handler = setup.handler(command, timeoutSeconds);
  const hooks: Record<string, unknown[]> = {};
  for (const [event, phase] of Object.entries(host.events)) {
    if (setup.shape === 'handlers') {
      hooks[event] = [handler];
      continue;
    }
    const matcher = setup.matcher(gateTools(host, phase));
    hooks[event] = [{ ...(matcher === undefined ? {} : { matcher }), hooks: [handler] }];
  }
  return { ...setup.extra, hooks };
}
