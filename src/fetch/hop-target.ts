import type { Decision } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import type { Policy } from '../policy/policy.ts';
import type { HopCredential } from './credential-headers.ts';
import { denied } from './fetch-trace.ts';
import { queryCredentialsForHop, type QueryCredential } from './query-credentials.ts';
import { isDowngrade } from './redirect-policy.ts';

/** What the cheap checks of one hop need: the hop's target, the chain so far and the first url's query credentials. */
export interface HopTargetInput {
  gate: Gate;
  /** 0-based hop index */
  index: number;
  target: string;
  url: URL | undefined;
  previous: URL | undefined;
  schemes: readonly string[];
  /** the first url as the caller gave it, and the credentials its query carries */
  firstUrl: string;
  queryCredentials: readonly QueryCredential[];
  /** urls of the hops between the first and this one */
  via: readonly string[];
}

/** A hop's target after the cheap checks (its url, credentials the policy denies taken out), or the refusal. */
export type HopTarget =
  | { ok: true; target: string; url: URL | undefined; queryReport: HopCredential[] }
  | { ok: false; decision: Decision; queryReport: HopCredential[] };

/**
 * The checks of one hop that need no network, run first so a refused hop never even causes a DNS query (an
 * exfiltration channel): the scheme among `fetch.schemes`, no https → http downgrade, and a credential in the first
 * url's query judged per hop like a header (a denied one taken out of the target, or the hop refused).
 */
export function checkHopTarget(input: HopTargetInput): HopTarget {
  const { gate, url } = input;
  const policy: Policy = gate.policy;
  if (url !== undefined && !input.schemes.includes(url.protocol.slice(0, -1))) {
    const message = `scheme \`${url.protocol.slice(0, -1)}\` is not fetched directly`;
    const decision = denied(policy, 'uri.scheme-not-allowed', 'fetch.schemes', 'link', message);
    return { ok: false, decision, queryReport: [] };
  }
  if (url !== undefined && input.previous !== undefined && isDowngrade(input.previous, url)) {
    const message = 'redirect from `https` to `http` is refused';
    return {
      ok: false,
      decision: denied(policy, 'fetch.downgrade', 'fetch.schemes', 'link', message),
      queryReport: [],
    };
  }
  if (url === undefined || input.queryCredentials.length === 0)
    return { ok: true, target: input.target, url, queryReport: [] };
  if (input.index === 0) {
    const queryReport = input.queryCredentials.map(
      (c): HopCredential => ({ header: `?${c.name}`, kind: 'bearer-in-query', attached: true, reasons: [] }),
    );
    return { ok: true, target: input.target, url, queryReport };
  }
  const query = queryCredentialsForHop(gate, input.firstUrl, input.queryCredentials, url, input.via);
  if (query.refused) {
    const decision: Decision = { effect: 'deny', reasons: query.reasons, policy: { ...policy.ref } };
    return { ok: false, decision, queryReport: query.report };
  }
  return { ok: true, target: query.url.href, url: query.url, queryReport: query.report };
}
