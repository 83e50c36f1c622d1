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
