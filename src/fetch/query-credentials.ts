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

// Parts of a parameter name that mark a credential whatever surrounds them (`api_token`, `access_key`,
// `sessionToken`, `client_secret`, `X-Amz-Signature`, `password`): a name is read lower-case with its `[…]`
// suffix and every separator taken off, so `access_token[]`, `Access-Key` and `accessKey` read alike. A name
// wrongly taken for one only loses the parameter on a hop the policy refuses credentials for.
const credentialNameParts = [
  'token',
  'key',
  'secret',
  'auth',
  'pass',
  'pwd',
  'sig',
  'session',
  'cred',
  'jwt',
  'bearer',
];
// whole names too short or too common to look for inside others: OAuth's authorization `code`, one-time codes
const credentialShortNames: ReadonlySet<string> = new Set(['code', 'sid', 'otp', 'pin', 'pw', 'ticket', 'nonce']);

/** Shortest value taken for a credential by its look alone (letters and digits mixed, no white space), characters. */
export const minCredentialLikeChars = 16;

/** True when a query parameter may carry a credential: a listed name (or one of `extraNames`, lower-case), a name holding a credential word, or a value that looks like a token (≥ 16 characters of letters and digits mixed, no white space). */
export function looksLikeQueryCredential(rawName: string, value: string, extraNames: ReadonlySet<string>): boolean {
  if (value === '') return false;
  const name = rawName.toLowerCase();
  if (queryCredentialNames.has(name) || extraNames.has(name)) return true;
  const bare = withoutBracketSuffix(name).replace(/[^a-z0-9]/g, '');
  if (credentialShortNames.has(bare) || credentialNameParts.some((part) => bare.includes(part))) return true;
  return value.length >= minCredentialLikeChars && !/\s/.test(value) && /[a-z]/i.test(value) && /\d/.test(value);
}

/**
 * `name.replace(/\[.*$/, '')` in one pass: the text from the first `[` that no line terminator follows (`.` stops at
 * `\n`, `\r`, U+2028 and U+2029, and `$` is the end of the text), cut off. The pattern itself backtracks
 * quadratically on many `[` before a line break (50,000 of them took seconds), and a parameter name is the linked
 * server's text.
 */
export function withoutBracketSuffix(name: string): string {
  let from = 0;
  for (let i = name.length - 1; i >= 0; i--) {
    const c = name.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) {
      from = i + 1;
      break;
    }
  }
  const bracket = name.indexOf('[', from);
  return bracket === -1 ? name : name.slice(0, bracket);
}

/** The credentials in `url`'s query string: parameters `looksLikeQueryCredential` takes for one (the policy's `extraNames` count too), with a value. */
export function findQueryCredentials(url: URL, extraNames: readonly string[]): QueryCredential[] {
  const extra = new Set(extraNames.map((n) => n.toLowerCase()));
  const found: QueryCredential[] = [];
  for (const [rawName, value] of url.searchParams) {
    if (!looksLikeQueryCredential(rawName, value, extra)) continue;
    if (!found.some((c) => c.value === value)) found.push({ name: rawName.toLowerCase(), value });
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
