import type { Reason } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import type { HopCredential } from './credential-headers.ts';

/** One credential the caller put in the first url's query string; `name` is lower-case. */
export interface QueryCredential {
  readonly name: string;
  readonly value: string;
}

/**
 * Query parameters that carry a credential (OAuth 2.0 RFC 6750 §2.3 `access_token`, signed-url signatures,
 * api keys), lower-case; the policy's `credentials.apiKeyHeaders` names count too.
 */
export const queryCredentialNames: ReadonlySet<string> = new Set([
  'access_token',
  'access-token',
  'accesstoken',
  'id_token',
  'refresh_token',
  'token',
  'auth',
  'auth_token',
  'authtoken',
  'oauth_token',
  'private_token',
  'bearer',
  'jwt',
  'api_key',
  'api-key',
  'apikey',
  'key',
  'client_secret',
  'secret',
  'password',
  'passwd',
  'pwd',
  'session',
  'sessionid',
  'sid',
  'sig',
  'signature',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'x-goog-signature',
  'x-goog-credential',
]);

/** Shortest credential value looked for anywhere in a later url; shorter ones are matched as whole parameter values only. */
const minSearchedChars = 8;

/** The credentials in `url`'s query string: parameters named in `queryCredentialNames` or `extraNames`, with a value. */
export function findQueryCredentials(url: URL, extraNames: readonly string[]): QueryCredential[] {
  const extra = new Set(extraNames.map((n) => n.toLowerCase()));
  const found: QueryCredential[] = [];
  for (const [rawName, value] of url.searchParams) {
    const name = rawName.toLowerCase();
    if (value === '' || !(queryCredentialNames.has(name) || extra.has(name))) continue;
    if (!found.some((c) => c.value === value)) found.push({ name, value });
  }
  return found;
}

/** What happens to the query credentials at one redirect hop. */
export type QueryHop =
  | { readonly refused: false; readonly url: URL; readonly report: HopCredential[] }
  | { readonly refused: true; readonly reasons: Reason[]; readonly report: HopCredential[] };

/**
 * Decides, for a redirect hop to `target`, each query credential of the first url that `target` carries (a
 * parameter with the same value, or the value anywhere in the url): the same `bearer-in-query` credential decision
 * as headers get (`from` the first url, through `via`). A denied one is removed from the query; when its value
 * also sits outside a removable parameter (the path, another parameter's text) the hop is refused.
 */
export function queryCredentialsForHop(
  gate: Gate,
  firstUrl: string,
  credentials: readonly QueryCredential[],
  target: URL,
  via: readonly string[],
): QueryHop {
  const url = new URL(target.href);
  const report: HopCredential[] = [];
  const refusals: Reason[] = [];
  for (const credential of credentials) {
    if (!carries(url, credential.value)) continue;
    const header = `?${credential.name}`;
    const decision = gate.decideCredential({
      stage: 'credential',
      kind: 'bearer-in-query',
      from: firstUrl,
      to: target.href,
      via: [...via],
    });
    if (decision.effect === 'allow') {
      report.push({ header, kind: 'bearer-in-query', attached: true, reasons: [] });
      continue;
    }
    report.push({ header, kind: 'bearer-in-query', attached: false, reasons: decision.reasons });
    for (const [name, value] of [...url.searchParams]) if (value === credential.value) url.searchParams.delete(name);
    if (carries(url, credential.value)) {
      refusals.push(...decision.reasons, {
        code: 'credential.cross-origin',
        rule: 'credentials.forward',
        stage: 'credential',
        message: `the redirect carries query credential \`${credential.name}\` where it cannot be removed`,
      });
    }
  }
  if (refusals.length > 0) return { refused: true, reasons: refusals, report };
  return { refused: false, url, report };
}

// the value as a whole parameter value, or (when long enough to be specific) anywhere in what is sent, raw or
// decoded: the host name too (a DNS query leaks it), not the fragment
function carries(url: URL, value: string): boolean {
  for (const [, v] of url.searchParams) if (v === value) return true;
  if (value.length < minSearchedChars) return false;
  const href = url.hash === '' ? url.href : url.href.slice(0, -url.hash.length);
  return href.includes(value) || href.includes(encodeURIComponent(value)) || safeDecode(href).includes(value);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `text` with every credential value (raw, percent-encoded or inside a decoded form) replaced by `…`, for records;
 * values shorter than the searched length are left to `maskUri`, which drops every query value.
 */
export function redactQueryCredentials(text: string, credentials: readonly QueryCredential[]): string {
  let out = text;
  for (const { value } of credentials) {
    if (value.length < minSearchedChars) continue;
    out = out.replaceAll(value, '…').replaceAll(encodeURIComponent(value), '…');
    if (safeDecode(out).includes(value)) out = safeDecode(out).replaceAll(value, '…');
  }
  return out;
}
