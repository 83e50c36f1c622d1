import { createHash } from 'node:crypto';
import { isRecord } from '../decision/json-value.ts';
import type { HookHandlerEntry } from './hook-groups.ts';

/** Codex's label of an event in trust keys and hashes (`PreToolUse` → `pre_tool_use`). */
export function codexEventLabel(event: string): string {
  return event.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toLowerCase();
}

/** The key Codex records a hook's trust under in `[hooks.state]`: `SOURCE:EVENT:GROUP:HANDLER`. */
export function codexHookKey(source: string, entry: HookHandlerEntry): string {
  return `${source}:${codexEventLabel(entry.event)}:${entry.groupIndex}:${entry.handlerIndex}`;
}

/** Seconds Codex gives a command hook that sets no timeout. */
export const codexDefaultHookTimeoutSeconds = 600;

/**
 * The hash Codex compares with a hook's recorded `trusted_hash` (codex-rs `command_hook_hash` and
 * `version_for_toml`): sha256 of the compact JSON, keys sorted, of the event label, the group's matcher and the one
 * normalized handler; fields that are absent are left out, as TOML has no null. Checked against `codex app-server`'s
 * `hooks/list` (`currentHash`) in test/doctor.
 */
export function codexHookHash(entry: HookHandlerEntry): string {
  const h = entry.handler;
  const timeout = typeof h['timeout'] === 'number' ? h['timeout'] : h['timeoutSec'];
  const handler: Record<string, unknown> = {
    type: 'command',
    command: entry.command,
    timeout: Math.max(1, typeof timeout === 'number' ? Math.trunc(timeout) : codexDefaultHookTimeoutSeconds),
    async: h['async'] === true,
  };
  if (typeof h['statusMessage'] === 'string') handler['statusMessage'] = h['statusMessage'];
  if (typeof h['additionalContextLimit'] === 'number') handler['additionalContextLimit'] = h['additionalContextLimit'];
  const identity: Record<string, unknown> = { event_name: codexEventLabel(entry.event), hooks: [handler] };
  if (entry.matcher !== undefined) identity['matcher'] = entry.matcher;
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sortKeys(identity)))
    .digest('hex')}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys(value[k])]),
  );
}

/**
 * Why Codex will not run a non-managed hook, from its recorded state (`[hooks.state."KEY"]` of config.toml): not
 * trusted in `/hooks`, trusted before its command changed, or turned off; undefined when it runs.
 */
export function codexHookBlocked(state: unknown, key: string, hash: string): string | undefined {
  const entry = isRecord(state) ? state[key] : undefined;
  if (isRecord(entry) && entry['enabled'] === false) return 'turned off in codex (`enabled = false`)';
  const trusted = isRecord(entry) ? entry['trusted_hash'] : undefined;
  if (trusted === undefined) return 'not trusted in codex: review it in `/hooks` (codex skips a hook nobody trusted)';
  if (trusted !== hash) return 'changed since it was trusted in codex: review it again in `/hooks`';
  return undefined;
}
