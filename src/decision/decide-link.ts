import { normalizeMime } from '../content/kinds.ts';
import { classifyAddress, classifyIpLiteral, type AddressVerdict } from '../link/classify-address.ts';
import { classifyHostName } from '../link/classify-host-name.ts';
import { isKnownNonCustomScheme } from '../link/known-schemes.ts';
import { linkSettings, type LinkSettings } from '../link/link-settings.ts';
import { originAllowed } from '../link/origin-allow-list.ts';
import { parseUri, type ParsedUri } from '../link/parse-uri.ts';
import { quoteValue } from '../link/quote-value.ts';
import type { Policy } from '../policy/policy.ts';
import { freezeFacts } from '../policy/rule-facts.ts';
import { combineEffects, type Decision, type Effect, type Reason } from './decision.ts';
import type { LinkInput } from './inputs.ts';
import type { ReasonCode } from './reason-codes.ts';
import { runRules } from './run-rules.ts';

/** Options of a link decision: resolved answers for the names `linkNamesToResolve` returned. */
export interface LinkDecisionOptions {
  /** host name → addresses; a name asked for and absent (or `[]`) did not resolve */
  resolved?: ReadonlyMap<string, readonly string[]>;
}

/** Most non-public resolver answers named in one reason message. */
const maxAnswersInMessage = 3;

interface LinkAnalysis {
  /** built-in reasons in their fixed order (all deny) */
  readonly reasons: Reason[];
  /** custom rule hits, in policy order */
  readonly ruleHits: { effect: Exclude<Effect, 'allow'>; reason: Reason }[];
  /** the host name resolution must check, when the link is otherwise allowed to a network destination */
  readonly resolveName: string | null;
}

/**
 * Pre-read decision for one link; synchronous, judges names by their text unless `resolved` is given.
 * Reasons come in a fixed order: input, uri syntax, parser confusion, userinfo, scheme, address, origin,
 * servers, declared size, declared type, resolution, custom rules. Deny overrides; `rule.*` hits may add
 * `partial`. A uri that does not parse skips the custom rules (their facts need a parsed uri).
 */
export function decideLink(policy: Policy, input: LinkInput, options: LinkDecisionOptions = {}): Decision {
  const { reasons, ruleHits, resolveName } = analyzeLink(policy, input);
  const denied = reasons.length > 0 || ruleHits.some((h) => h.effect === 'deny');
  if (options.resolved !== undefined && resolveName !== null && !denied) {
    reasons.push(...resolutionReasons(resolveName, options.resolved.get(resolveName)));
  }
  // every built-in reason denies; rule hits bring their own effect
  let effect: Effect = reasons.length > 0 ? 'deny' : 'allow';
  if (ruleHits.length > 0) {
    effect = combineEffects([effect, ...ruleHits.map((h) => h.effect)]);
    for (const hit of ruleHits) reasons.push(hit.reason);
  }
  return { effect, reasons, policy: { ...policy.ref } };
}

/** Host names of a link that resolution must check (none for ip literals, opaque uris or denied links). */
export function linkNamesToResolve(policy: Policy, input: LinkInput): string[] {
  const analysis = analyzeLink(policy, input);
  if (analysis.resolveName === null || analysis.reasons.length > 0) return [];
  if (analysis.ruleHits.some((h) => h.effect === 'deny')) return [];
  return [analysis.resolveName];
}

function analyzeLink(policy: Policy, input: LinkInput): LinkAnalysis {
  const settings = linkSettings(policy);
  const reasons: Reason[] = [];
  const { link } = input;
  const server = input.server ?? 'default';
  const readFrom = input.readFrom ?? 'default';
  const uri = parseUri(link.uri);

  let resolveName: string | null = null;
  let addressClass: string | null = null;
  let custom = false;
  if (!uri.ok) {
    reasons.push(reason('uri.invalid', 'links.uri', uri.message));
  } else {
    if (uri.confusions.length > 0) {
      reasons.push(reason('uri.parser-confusion', 'links.uri', `uri has ${uri.confusions.join(' and ')}`));
    }
    if (uri.userinfo) reasons.push(reason('uri.userinfo', 'links.userinfo', 'uri carries userinfo (a user, password or `@`)'));
    const network = settings.schemes.has(uri.scheme);
    custom = !network && !isKnownNonCustomScheme(uri.scheme);
    if (!network && !custom) {
      reasons.push(reason('uri.scheme-not-allowed', 'links.schemes', `scheme ${quoteValue(uri.scheme)} is not in \`links.schemes\``));
    } else if (custom && !settings.customSchemesAllowed) {
      reasons.push(reason('uri.scheme-not-allowed', 'links.customSchemes', `custom scheme ${quoteValue(uri.scheme)} is denied by \`links.customSchemes\``));
    }
    const address = judgeHost(settings, uri, custom);
    addressClass = address.addressClass;
    if (address.reason !== undefined) reasons.push(address.reason);
    if (network && address.resolvable) resolveName = uri.host?.text ?? null;
    if (network && settings.origins !== null && !originAllowed(settings.origins, uri)) {
      const origin = uri.origin === null ? 'uri has no origin' : `origin ${quoteValue(uri.origin)}`;
      reasons.push(reason('origin.not-allowed', 'links.origins', `${origin} is not in \`links.origins\``));
    }
  }

  serverReasons(settings, server, readFrom, reasons);
  const size = sizeReason(settings, link.size);
  if (size !== undefined) reasons.push(size);
  if (settings.denyDeclaredTypes && link.mimeType !== undefined && !settings.declaredTypeAllowed(link.mimeType)) {
    reasons.push(reason('type.declared-not-allowed', 'links.denyDeclaredTypes', `declared type ${quoteValue(link.mimeType)} is not allowed by \`content.allow\``));
  }

  const ruleHits =
    uri.ok && settings.hasLinkRules
      ? runRules(
          policy,
          'link',
          freezeFacts({
            server,
            readFrom,
            uri: link.uri,
            scheme: uri.scheme,
            host: uri.host?.text ?? null,
            port: uri.port,
            origin: uri.origin,
            path: uri.path,
            name: link.name,
            mimeType: link.mimeType === undefined ? null : normalizeMime(link.mimeType),
            size: link.size ?? null,
            addressClass,
            customScheme: custom,
          }),
        )
      : [];
  return { reasons, ruleHits, resolveName };
}

interface HostJudgement {
  readonly reason?: Reason;
  /** `public`, `loopback`, … for ip literals; null for names and uris without a host */
  readonly addressClass: string | null;
  /** a name that passed the text checks, so resolution may judge it */
  readonly resolvable: boolean;
}

function judgeHost(settings: LinkSettings, uri: ParsedUri, custom: boolean): HostJudgement {
  const host = uri.host;
  if (host === null) return { addressClass: null, resolvable: false };
  if (host.kind !== 'name') {
    const verdict = classifyIpLiteral(host.kind, host.text);
    if (verdict.public || !settings.denyNonPublicAddresses) return { addressClass: verdict.class, resolvable: false };
    return { reason: nonPublicAddress(host.text, verdict), addressClass: verdict.class, resolvable: false };
  }
  if (!settings.denyNonPublicAddresses) return { addressClass: null, resolvable: false };
  const verdict = classifyHostName(host.text, { internalNames: settings.internalNames, opaqueAuthority: custom });
  if (verdict.public) return { addressClass: null, resolvable: !custom };
  return {
    reason: reason('uri.non-public-address', 'links.denyNonPublicAddresses', `host ${quoteValue(host.text)} ${verdict.description}`),
    addressClass: null,
    resolvable: false,
  };
}

function nonPublicAddress(host: string, verdict: AddressVerdict): Reason {
  return reason('uri.non-public-address', 'links.denyNonPublicAddresses', `host ${quoteValue(host)} is a non-public address: ${verdict.description}`);
}

// Fail closed: a name asked for and not answered (absent, `[]`, resolver error or timeout) is `uri.unresolved`;
// any non-public answer (DNS rebinding lists every answer) is `uri.non-public-address`.
function resolutionReasons(name: string, answers: readonly string[] | undefined): Reason[] {
  if (answers === undefined || answers.length === 0) {
    return [reason('uri.unresolved', 'links.resolveNames', `host ${quoteValue(name)} does not resolve`)];
  }
  const bad = answers.map(classifyAddress).filter((v) => !v.public);
  if (bad.length === 0) return [];
  const listed = bad
    .slice(0, maxAnswersInMessage)
    .map((v) => `${quoteValue(v.address)} (${v.description})`)
    .join(', ');
  const more = bad.length > maxAnswersInMessage ? ` and ${bad.length - maxAnswersInMessage} more` : '';
  return [reason('uri.non-public-address', 'links.denyNonPublicAddresses', `host ${quoteValue(name)} resolves to non-public ${listed}${more}`)];
}

function serverReasons(settings: LinkSettings, server: string, readFrom: string, out: Reason[]): void {
  if (settings.servers !== null) {
    for (const id of server === readFrom ? [server] : [server, readFrom]) {
      if (!settings.servers.has(id)) out.push(reason('server.not-allowed', 'links.servers', `server ${quoteValue(id)} is not in \`links.servers\``));
    }
  }
  if (settings.requireSameServer && readFrom !== server) {
    out.push(reason('server.mismatch', 'links.requireSameServer', `the read would go to server ${quoteValue(readFrom)}, not ${quoteValue(server)} that returned the link`));
  }
}

function sizeReason(settings: LinkSettings, size: number | undefined): Reason | undefined {
  if (size === undefined) return undefined;
  if (!Number.isSafeInteger(size) || size < 0) {
    return { code: 'input.invalid', rule: 'input', stage: 'input', message: `field \`link.size\` must be a whole number of bytes ≥ 0, got ${quoteValue(String(size))}` };
  }
  if (size > settings.maxDeclaredBytes) {
    return reason('size.declared-too-large', 'links.maxDeclaredBytes', `declared size ${size} bytes is over \`links.maxDeclaredBytes\` ${settings.maxDeclaredBytes}`);
  }
  return undefined;
}

function reason(code: ReasonCode, rule: string, message: string): Reason {
  return { code, rule, stage: 'link', message };
}
