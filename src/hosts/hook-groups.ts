import { isRecord } from '../decision/json-value.ts';
import type { HookPhase } from './host-description.ts';

/** One command handler of a `{EVENT: [{matcher, hooks: [{type, command, …}]}]}` hooks block, with its position. */
export interface HookHandlerEntry {
  readonly event: string;
  readonly phase: HookPhase;
  readonly matcher?: string;
  readonly command: string;
  /** the exec form's arguments (`args`: the command runs without a shell), when the handler gives them */
  readonly args?: readonly string[];
  /** the handler object as written */
  readonly handler: Readonly<Record<string, unknown>>;
  /** position of its matcher group in the event's list, and of the handler in the group (0-based) */
  readonly groupIndex: number;
  readonly handlerIndex: number;
}

/**
 * The command handlers of a hooks block in the shape Claude Code, Codex (`hooks.json`, `[hooks]`) and Gemini CLI share,
 * for the events in `phases` (event name → the part of a read it sees); other events and non-command handlers are left out.
 */
export function hookHandlers(hooks: unknown, phases: Readonly<Record<string, HookPhase>>): HookHandlerEntry[] {
  if (!isRecord(hooks)) return [];
  const found: HookHandlerEntry[] = [];
  for (const [event, phase] of Object.entries(phases)) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, groupIndex) => {
      if (!isRecord(group) || !Array.isArray(group['hooks'])) return;
      const matcher = typeof group['matcher'] === 'string' ? group['matcher'] : undefined;
      group['hooks'].forEach((handler: unknown, handlerIndex) => {
        if (!isRecord(handler) || typeof handler['command'] !== 'string') return;
        if (handler['type'] !== undefined && handler['type'] !== 'command') return;
        const args = handler['args'];
        found.push({
          event,
          phase,
          ...(matcher === undefined ? {} : { matcher }),
          command: handler['command'],
          ...(Array.isArray(args) && args.every((a) => typeof a === 'string') ? { args: args } : {}),
          handler,
          groupIndex,
          handlerIndex,
        });
      });
    });
  }
  return found;
}
