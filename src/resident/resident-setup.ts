// What `linkgate resident claude-code --print-config` prints: the command hook's own printed set-up with its
// `PreToolUse` entry replaced by the resident server's HTTP hook, and the server added beside the command hook after
// a tool ran so that it keeps what tool results return. Withholding a body stays with the command hook (and the
// proxy, with `--server`): a post hook that does not answer lets the result through for every hook type.
import { isRecord } from '../decision/json-value.ts';
import { hookTimeoutSeconds } from '../hook/hook-settings.ts';
import { claudeCode } from '../hosts/claude-code.ts';
import { eventOf, gateTools } from '../hosts/hook-setup.ts';
import { residentAddress } from './resident-conditions.ts';
import { secretEnvVar, secretHeader } from './resident-secret.ts';
import { residentPath } from './resident-server.ts';

/** The header name as printed in the settings (HTTP header names are case-insensitive). */
export const printedSecretHeader = 'X-Linkgate-Secret';

/** The url Claude Code posts an event to. */
export function residentUrl(port: number): string {
  return `http://${residentAddress}:${port}${residentPath}`;
}

/**
 * Claude Code's HTTP hook handler for the server on `port`: `onFailure: "block"` (a server that is down, slow, killed
 * mid-answer or answers garbage or a non-2xx status refuses the call) and the secret from the host's environment.
 */
export function residentHandler(port: number): Record<string, unknown> {
  return {
    type: 'http',
    url: residentUrl(port),
    timeout: hookTimeoutSeconds,
    onFailure: 'block',
    headers: { [printedSecretHeader]: `$${secretEnvVar}` },
    allowedEnvVars: [secretEnvVar],
  };
}

/** True when `header` names the secret header (any case). */
export function isSecretHeader(header: string): boolean {
  return header.toLowerCase() === secretHeader;
}

/**
 * `printed` (what `linkgate hook claude-code --print-config` prints) with the resident server on `port`: before a
 * call the HTTP hook alone, after a call the command hook as printed plus the HTTP hook for the tools whose results
 * return links (not the read: its result is judged by the command hook).
 */
export function residentSettings(printed: Record<string, unknown>, port: number): Record<string, unknown> {
  const hooks = isRecord(printed['hooks']) ? { ...printed['hooks'] } : {};
  const pre = eventOf(claudeCode, 'pre');
  const post = eventOf(claudeCode, 'post');
  if (pre === undefined || post === undefined) throw new Error('claude code has no pre or post event');
  hooks[pre] = [{ matcher: claudeCode.setup.matcher(gateTools(claudeCode, 'pre')), hooks: [residentHandler(port)] }];
  const returning = gateTools(claudeCode, 'post').filter((tool) => tool !== claudeCode.tools.read);
  const printedPost = Array.isArray(hooks[post]) ? (hooks[post] as unknown[]) : [];
  hooks[post] = [...printedPost, { matcher: claudeCode.setup.matcher(returning), hooks: [residentHandler(port)] }];
  return { ...printed, hooks };
}

/** The conditions the printed set-up is safe under, one line each (said on stderr beside it). */
export function residentConditionLines(port: number, server: string, gated: string, start: number): string[] {
  return [
    `the http hook is only as safe as the command hook while all of these hold (docs/resident-hook.md):`,
    `- the server runs as \`${server}\`, not as the gated user \`${gated}\` and not as root: the gated user cannot stop it`,
    `- it listens on ${residentAddress}:${port}, below net.ipv4.ip_unprivileged_port_start (${start}): the gated user cannot take the port`,
    `- the gated user is not root and has no CAP_NET_BIND_SERVICE`,
    `- claude code runs with $${secretEnvVar} set to the secret the server wrote at its start (every request without it is refused)`,
    '- `onFailure: "block"` stays on every http entry: a server that is down, slow or answers garbage then refuses the read',
    '- after a tool ran, the command hook (and the proxy, with `--server`) withholds: a post hook that does not answer lets the result through, for every hook type',
  ];
}
