import { claudeCodeHost } from './claude-code-host.ts';
import { clineHost } from './cline-host.ts';
import { codexHost } from './codex-host.ts';
import { copilotCliHost } from './copilot-cli-host.ts';
import { cursorHost } from './cursor-host.ts';
import { geminiCliHost } from './gemini-cli-host.ts';
import type { HostAdapter } from './host-adapter.ts';
import { windsurfHost } from './windsurf-host.ts';

/** Each host's adapter, by the name `linkgate hook HOST` takes. */
export const hostAdapters = {
  'claude-code': claudeCodeHost,
  codex: codexHost,
  'gemini-cli': geminiCliHost,
  cursor: cursorHost,
  cline: clineHost,
  'copilot-cli': copilotCliHost,
  windsurf: windsurfHost,
} as const satisfies Readonly<Record<string, HostAdapter>>;

/** A host name `linkgate hook` accepts. */
export type HookHost = keyof typeof hostAdapters;

/** True when `name` is a host `linkgate hook` speaks to. */
export function isHookHost(name: string): name is HookHost {
  return Object.hasOwn(hostAdapters, name);
}
