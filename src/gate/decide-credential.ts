import { credentialOrigin } from '../link/canonical-origin.ts';
import { parseUri, type ParsedUri } from '../link/parse-uri.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { Policy } from '../policy/policy.ts';
import { freezeFacts, type RuleFacts } from '../policy/rule-facts.ts';
import { combineEffects, type Decision, type Effect, type Reason } from '../decision/decision.ts';
import type { CredentialInput } from './inputs.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import { runRules } from './run-rules.ts';

/**
 * May a credential bound to `from` be attached at `to` after the hops in `via`? Allowed only when the
 * canonical origins (WHATWG tuple origins: scheme, host after IDNA and percent-decoding, port with the
 * default elided; trailing dot kept) of `from`, every hop and `to` are all equal: once a chain leaves the
 * origin the credential never comes back. Opaque origins (custom schemes, `file:`) never match. Userinfo, a
 * parser-confusion form or a host other parsers read differently (`1.2.3.010`) in any of the urls strips.
 * `credentials.forward: never` strips every credential: `from` is the one request it was issued for, and
 * every decision here is about a later request.
 * Reasons in a fixed order: uri syntax, userinfo, forwarding disabled, cross-origin, custom rules.
 */
export function decideCredential(policy: Policy, input: CredentialInput): Decision {
  const via = input.via ?? [];
  const urls: readonly (readonly [string, string])[] = [
    ['from', input.from],
    ...via.map((v, i) => [`via[${i}]`, v] as const),
    ['to', input.to],
  ];
  const parsed = new Map<string, ParsedUri>();
  const reasons: Reason[] = [];

  const invalid: string[] = [];
  const confused: string[] = [];
  const withUserinfo: string[] = [];
  for (const [field, text] of urls) {
    const uri = parseUri(text);
    if (!uri.ok) {
      invalid.push(`\`${field}\` (${uri.message})`);
      continue;
    }
    parsed.set(field, uri);
    if (uri.confusions.length > 0) confused.push(`\`${field}\` has ${uri.confusions.join(' and ')}`);
    // a host that other parsers read as another host (`1.2.3.010`): the client may send it somewhere else
    for (const other of uri.otherHosts)
      confused.push(
        `\`${field}\` host ${quoteValue(uri.host?.text ?? '')} is read as ${quoteValue(other.text)} by other parsers`,
      );
    if (uri.userinfo) withUserinfo.push(`\`${field}\``);
  }
  if (invalid.length > 0) reasons.push(reason('uri.invalid', `${invalid.join(', ')} does not parse`));
  if (confused.length > 0) reasons.push(reason('uri.parser-confusion', confused.join('; ')));
  if (withUserinfo.length > 0) reasons.push(reason('uri.userinfo', `${withUserinfo.join(', ')} carries userinfo`));
  if (policy.document.credentials.forward === 'never') {
    reasons.push(
      reason('credential.forward-disabled', 'the policy forwards no credential beyond the request it was issued for'),
    );
  }

  const from = parsed.get('from');
  const to = parsed.get('to');
  const fromOrigin = from === undefined ? null : credentialOrigin(from);
  const toOrigin = to === undefined ? null : credentialOrigin(to);
  if (from !== undefined && to !== undefined) {
    const left = leftOrigin(fromOrigin, urls, parsed);
    if (left !== undefined) reasons.push(reason('credential.cross-origin', left));
  }

  const effects: Effect[] = reasons.map(() => 'deny');
  if (policy.link.hasCredentialRules) {
    const facts = credentialFactsOf(input, fromOrigin, toOrigin);
    for (const hit of runRules(policy, 'credential', facts)) {
      reasons.push(hit.reason);
      effects.push(hit.effect);
    }
  }
  return { effect: combineEffects(effects), reasons, policy: { ...policy.ref } };
}

// The first url of the chain (hops, then `to`) whose origin is not `from`'s, as a message; undefined when none.
function leftOrigin(
  fromOrigin: string | null,
  urls: readonly (readonly [string, string])[],
  parsed: ReadonlyMap<string, ParsedUri>,
): string | undefined {
  if (fromOrigin === null)
    return 'the credential is bound to an opaque origin (`from` is not http, https, ws, wss or ftp)';
  for (const [field] of urls.slice(1)) {
    const uri = parsed.get(field);
    if (uri === undefined) continue;
    const origin = credentialOrigin(uri);
    if (origin === fromOrigin) continue;
    const shown = origin === null ? 'an opaque origin' : `origin ${quoteValue(origin)}`;
    const where = field === 'to' ? '`to`' : `\`${field}\` (the chain never returns to it)`;
    return `${where} has ${shown}, not ${quoteValue(fromOrigin)} where the credential was issued`;
  }
  return undefined;
}

function reason(code: ReasonCode, message: string): Reason {
  return { code, rule: 'credentials.forward', stage: 'credential', message };
}

/** The facts the credential stage's custom rules read for this input (`src/policy/rule-facts.ts`). */
export function credentialRuleFacts(input: CredentialInput): RuleFacts {
  const from = parseUri(input.from);
  const to = parseUri(input.to);
  return credentialFactsOf(input, from.ok ? credentialOrigin(from) : null, to.ok ? credentialOrigin(to) : null);
}

function credentialFactsOf(input: CredentialInput, fromOrigin: string | null, toOrigin: string | null): RuleFacts {
  return freezeFacts({
    kind: input.kind,
    from: input.from,
    to: input.to,
    fromOrigin,
    toOrigin,
    hops: (input.via ?? []).length,
    sameOrigin: fromOrigin !== null && fromOrigin === toOrigin,
  });
}
