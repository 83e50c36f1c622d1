import type { Reason } from '../decision/decision.ts';
import type { CredentialInput } from '../gate/inputs.ts';
import type { Gate } from '../gate/create-gate.ts';

/** A credential kind of the credential stage (DESIGN §4). */
export type CredentialKind = CredentialInput['kind'];

/** One caller-supplied header that carries a credential; `name` is lower-case. */
export interface CredentialHeader {
  readonly name: string;
  readonly value: string;
  readonly kind: CredentialKind;
}

/** What happened to one credential (a header, or a query parameter of the first url) at one hop; never holds the value. */
export interface HopCredential {
  /** lower-case header name, or `?name` for a query parameter (`?access_token`) */
  header: string;
  kind: CredentialKind;
  attached: boolean;
  /** why it was stripped (empty when attached) */
  reasons: Reason[];
}

/** A request's headers split into plain ones and credentials; names are lower-case. */
export interface SplitHeaders {
  plain: ReadonlyArray<readonly [string, string]>;
  credentials: readonly CredentialHeader[];
}

/**
 * Headers the fetcher sets itself or that describe one connection (RFC 9110 §7.6.1);
 * a caller's value is dropped. `accept-encoding` is forced to `identity` so the byte cap
 * counts the bytes the content checks see (no decompression bombs).
 */
const managedHeaders = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'accept-encoding',
  'expect',
  // the fetcher never sends a referrer: a url with a token in its query must not travel in a header
  'referer',
]);

const fixedKinds: Readonly<Record<string, CredentialKind>> = {
  authorization: 'authorization',
  cookie: 'cookie',
  'proxy-authorization': 'proxy-authorization',
};

/** Splits caller headers into plain headers and credentials (`apiKeyHeaders` from the policy, any case). */
export function splitHeaders(
  headers: Readonly<Record<string, string>>,
  apiKeyHeaders: readonly string[],
): SplitHeaders {
  const apiKeys = new Set(apiKeyHeaders.map((h) => h.toLowerCase()));
  const plain: Array<readonly [string, string]> = [];
  const credentials: CredentialHeader[] = [];
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (managedHeaders.has(name)) continue;
    const kind = fixedKinds[name] ?? (apiKeys.has(name) ? 'api-key-header' : undefined);
    if (kind === undefined) plain.push([name, value]);
    else credentials.push({ name, value, kind });
  }
  return { plain, credentials };
}

/** Decides, hop by hop, which credentials go on the request; stateful: once the chain left the first origin it never attaches again. */
export interface CredentialTracker {
  /** credentials for the hop at `url`; `via` are the urls of the hops between the first and this one */
  forHop(url: string, via: readonly string[]): { attach: CredentialHeader[]; report: HopCredential[] };
}

/** Creates the tracker for one fetch; the first hop always carries the caller's credentials. */
export function trackCredentials(
  gate: Gate,
  firstUrl: string,
  credentials: readonly CredentialHeader[],
): CredentialTracker {
  const firstOrigin = new URL(firstUrl).origin;
  let leftOrigin = false;
  let hop = 0;
  return {
    forHop(url, via) {
      const index = hop++;
      // a latch on top of the gate's decision: Go CVE-2024-45336 restored headers on a later same-origin hop
      if (new URL(url).origin !== firstOrigin) leftOrigin = true;
      const attach: CredentialHeader[] = [];
      const report: HopCredential[] = [];
      for (const credential of credentials) {
        const reasons = index === 0 ? [] : stripReasons(gate, credential, firstUrl, url, via, leftOrigin);
        if (reasons.length === 0) attach.push(credential);
        report.push({ header: credential.name, kind: credential.kind, attached: reasons.length === 0, reasons });
      }
      return { attach, report };
    },
  };
}

function stripReasons(
  gate: Gate,
  credential: CredentialHeader,
  from: string,
  to: string,
  via: readonly string[],
  leftOrigin: boolean,
): Reason[] {
  const decision = gate.decideCredential({ stage: 'credential', kind: credential.kind, from, to, via: [...via] });
  if (decision.effect !== 'allow') return decision.reasons;
  if (!leftOrigin) return [];
  return [
    {
      code: 'credential.cross-origin',
      rule: 'credentials.forward',
      stage: 'credential',
      message: `header \`${credential.name}\` is not re-attached after the redirect chain left its origin`,
    },
  ];
}
