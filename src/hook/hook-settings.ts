import { claudeCode } from '../hosts/claude-code.ts';
import { cline } from '../hosts/cline.ts';
import { codex } from '../hosts/codex.ts';
import { copilotCli } from '../hosts/copilot-cli.ts';
import { cursor } from '../hosts/cursor.ts';
import { geminiCli } from '../hosts/gemini-cli.ts';
import { gateTools, printedHooks } from '../hosts/hook-setup.ts';
import type { HostDescription } from '../hosts/host-description.ts';
import { hostDescriptions } from '../hosts/hosts.ts';
import { windsurf } from '../hosts/windsurf.ts';

// Everything here is read from the host descriptions (src/hosts/) when it is asked for: this file only picks
// linkgate's own choices (the timeout, the plugin's command) and keeps the names other modules import.

/** Seconds a host waits for one hook event before it gives up (Claude Code then lets the call through). */
export const hookTimeoutSeconds = 30;

/** The command the packaged Claude Code plugin (`hooks/hooks.json`) runs, from the plugin's own folder. */
export const pluginHookCommand =
  'node "${CLAUDE_PLUGIN_ROOT}/dist/bin/linkgate.js" hook claude-code --policy "${CLAUDE_PLUGIN_ROOT}/policies/default.yaml"';

/** The matcher linkgate's hooks for `host` use in `phase` (from its description: the tools a gate must see). */
export function gateMatcher(host: HostDescription, phase: 'pre' | 'post' | 'failure'): string | undefined {
  return host.setup.matcher(gateTools(host, phase));
}

/** The hooks block (settings.json or hooks.json) that runs `command` on every event `host`'s gate needs. */
export function hookSettings(host: HostDescription, command: string): Record<string, unknown> {
  return printedHooks(host, command, hookTimeoutSeconds);
}

/** Tools whose calls the gate must see before they run (Claude Code matcher syntax). */
export const preToolMatcher = gateMatcher(claudeCode, 'pre') ?? '';
/** Tools whose results the gate must see (links returned, resources listed, bodies read). */
export const postToolMatcher = gateMatcher(claudeCode, 'post') ?? '';
/** Gemini CLI tools whose calls the gate must see before they run (`BeforeTool` matcher, a regular expression). */
export const geminiBeforeMatcher = gateMatcher(geminiCli, 'pre') ?? '';
/** Gemini CLI tools whose results the gate must see (`AfterTool` matcher): reads, lists and every MCP tool. */
export const geminiAfterMatcher = gateMatcher(geminiCli, 'post') ?? '';

/** The Claude Code `hooks` settings block that runs `command`, each entry with `onFailure: "block"`. */
export function claudeCodeSettings(command: string): { hooks: Record<string, unknown[]> } {
  return hookSettings(claudeCode, command) as { hooks: Record<string, unknown[]> };
}

/** Gemini CLI `settings.json` hooks that run `command` (its timeouts are milliseconds). */
export function geminiCliSettings(command: string): { hooks: Record<string, unknown[]> } {
  return hookSettings(geminiCli, command) as { hooks: Record<string, unknown[]> };
}

/** Cursor `hooks.json` that runs `command` on its MCP events, with `failClosed` so a failing hook blocks. */
export function cursorSettings(command: string): { version: number; hooks: Record<string, unknown[]> } {
  return hookSettings(cursor, command) as { version: number; hooks: Record<string, unknown[]> };
}

/** The Codex `hooks.json` that runs `command` on every event the gate needs. */
export function codexSettings(command: string): { hooks: Record<string, unknown[]> } {
  return hookSettings(codex, command) as { hooks: Record<string, unknown[]> };
}

/** The configuration block `linkgate hook HOST --print-config` prints, for each host, around the hook command. */
export const hostSettings = {
  'claude-code': claudeCodeSettings,
  codex: codexSettings,
  'gemini-cli': geminiCliSettings,
  cursor: cursorSettings,
  // Cline's hooks are files, not a json block: `{hookFiles: {EVENT: script}}` (its description's `setup.print`)
  cline: (command: string) => hookSettings(cline, command),
  'copilot-cli': (command: string) => hookSettings(copilotCli, command),
  windsurf: (command: string) => hookSettings(windsurf, command),
} as const satisfies { readonly [H in keyof typeof hostDescriptions]: (command: string) => unknown };

/** Quotes one argument for a POSIX shell command line (hosts run `command` through `sh -c`). */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
