import { isIP } from 'node:net';
import type { Decision } from '../decision/decision.ts';
import { parseUri, uriOrigin } from '../link/parse-uri.ts';
import { resolveWithin, type Resolver } from '../link/resolve-name.ts';
import type { Policy } from '../policy/policy.ts';
import { denied } from './fetch-trace.ts';

/**
 * The address one hop connects to: the ip literal itself, or the first answer the link decision checked (a name it
 * did not check is resolved here only when the policy does not judge its addresses); a deny when there is none.
 */
export async function pinAddress(
  policy: Policy,
  url: URL,
  answers: readonly string[] | undefined,
  resolve: Resolver,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | Decision> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) return host;
  let checked = answers;
  if (checked === undefined) {
    // the link decision did not ask for the name: only a host whose addresses the policy does not judge may skip the check
    if (policy.link.denyNonPublicAddresses && !isExemptOrigin(policy, url)) {
      return denied(
        policy,
        'engine.error',
        'engine',
        'engine',
        `host \`${url.hostname}\` was not resolved and checked by the link decision`,
      );
    }
    checked = await resolveWithin(resolve, url.hostname, timeoutMs, signal);
  }
  const first = checked?.[0];
  if (first === undefined || isIP(first) === 0) {
    return denied(
      policy,
      'uri.unresolved',
      'fetch.resolve',
      'link',
      `host \`${url.hostname}\` did not resolve to an ip address`,
    );
  }
  return first;
}

/** True when the engine exempts `url`'s origin from the address rules (`links.allowNonPublicOrigins`), compared as the engine compares it. */
function isExemptOrigin(policy: Policy, url: URL): boolean {
  const parsed = parseUri(url.href);
  const origin = parsed.ok ? uriOrigin(parsed) : null;
  return origin !== null && policy.link.exemptOrigins.has(origin);
}
