import type { HookBlindPath } from '../hosts/host-description.ts';
import { hostDescriptions } from '../hosts/hosts.ts';
import type { Policy } from '../policy/policy.ts';
import type { HookHost } from './hook-hosts.ts';

/** A policy setting in force that a host's hooks cannot enforce, and why (lowercase, one line). */
export interface HookBlindSpot {
  /** the setting's dotted path (`links.maxDeclaredBytes`) */
  setting: string;
  why: string;
}

// what each host renders a `resource_link` as before its hooks see it (its description's `renderedLink`, observed on the
// real binaries: test/real-host/observed/); a rendered link carries no declared size or type, so a hook cannot judge them
const renderedLink = (host: HookHost): string | null => hostDescriptions[host].renderedLink;

/**
 * The settings of `policy` that the hooks of `host` cannot enforce, because the host never shows them what the setting
 * judges (Claude Code and Gemini CLI flatten links to text before their hooks: no declared size or type). Empty when
 * the hook enforces every setting in force. The proxy, which sees the server's own messages, enforces them all.
 */
export function hookBlindSpots(host: HookHost, policy: Policy): HookBlindSpot[] {
  const rendered = renderedLink(host);
  if (rendered === null) return [];
  const spots: HookBlindSpot[] = [
    // required by the schema: always in force
    { setting: 'links.maxDeclaredBytes', why: `${rendered}: no declared size reaches the hook` },
  ];
  if (policy.link.denyDeclaredTypes)
    spots.push({ setting: 'links.denyDeclaredTypes', why: `${rendered}: no declared mime type reaches the hook` });
  return spots;
}

/** One line naming the blind spots of `host` under `policy` (for stderr at start-up); null when there are none. */
export function hookBlindSpotLine(host: HookHost, policy: Policy): string | null {
  const spots = hookBlindSpots(host, policy);
  if (spots.length === 0) return null;
  const settings = spots.map((s) => `\`${s.setting}\``).join(', ');
  return `not enforced by the ${host} hook: ${settings} (${renderedLink(host) ?? ''}, with no declared size or type); linkgate proxy in front of the server enforces them`;
}

/**
 * The paths by which `host` hands the model what a server sent where no hook can withhold it (Claude Code's tool
 * results with `isError: true`), measured on the real binaries; empty when none is known. Only `linkgate proxy` in
 * front of the server gates them. The hook itself never names them: an event shows it nothing of how the host starts
 * the server, so it cannot tell whether a proxy stands in front (doctor, which reads the host's server entries, does).
 */
export function hookBlindPaths(host: HookHost): readonly HookBlindPath[] {
  return hostDescriptions[host].hookBlindPaths ?? [];
}

/** One line naming what the hooks of `host` alone leave ungated on the way to the model; null when nothing is known. */
export function hookBlindPathLine(host: HookHost): string | null {
  const paths = hookBlindPaths(host);
  if (paths.length === 0) return null;
  return paths.map((p) => `${p.what} are not gated by any hook: ${p.why}`).join('; ');
}
