import { hostDescriptions } from '../hosts/hosts.ts';
import type { DoctorHost } from './doctor-report.ts';

// what a host can be started with that changes its hooks or its servers, where doctor knows the switches by name
const examples: Partial<Record<DoctorHost, string>> = {
  'claude-code':
    '`--bare` runs no hook, `--settings FILE` adds settings that can turn hooks off, `--mcp-config FILE` adds servers, `--add-dir DIR` opens a folder to the agent',
  codex: '`-c KEY=VALUE` and `--profile NAME` override config.toml, another `CODEX_HOME` reads other files',
  'gemini-cli': '`GEMINI_CLI_TRUST_WORKSPACE` and the other variables it reads change which files and hooks count',
};

/**
 * What doctor cannot see of how `host` is started, one lowercase line: it judges from the host's files and its own
 * environment, never from the flags or environment a session of the host is started with, which can turn a hook off
 * or bring servers it does not list. Said wherever doctor calls a server of the host gated, so it claims no more.
 */
export function unseenLaunch(host: DoctorHost): string {
  const label = hostDescriptions[host].label;
  const named = examples[host];
  return (
    `judged from ${label}'s files and doctor's own environment: doctor cannot see the flags or environment ${label} ` +
    `is started with${named === undefined ? '' : ` (${named})`}, so a session started otherwise may not be gated`
  );
}
