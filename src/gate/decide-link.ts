import { normalizeMime } from '../content/kinds.ts';
import { classifyAddress } from '../link/classify-address.ts';
import type { LinkSettings } from '../policy/link-settings.ts';
import { compileOriginAllowList, originAllowed } from '../link/origin-allow-list.ts';
import { parseUri, type ParsedUri, type UriHost, uriOrigin } from '../link/parse-uri.ts';
import type { UriReading } from '../link/reused-url.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { Policy } from '../policy/policy.ts';
import { freezeFacts, type RuleFacts } from '../policy/rule-facts.ts';
import { strongerEffect, type Decision, type Effect, type PolicyRef, type Reason } from '../decision/decision.ts';
import type { LinkInput } from './inputs.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import { judgeHost } from './judge-link-host.ts';
import { runRules, type RuleHit } from './run-rules.ts';

/** Options of a link decision: resolved answers for the names `linkNamesToResolve` returned. */
export interface LinkDecisionOptions {
  /** host name → addresses; a name asked for and absent (or `[]`) did not resolve */
  resolved?: ReadonlyMap<string, readonly string[]>;
  /** the caller's WHATWG reading of the link's uri (`reused-url.ts`): not parsed again */
  reading?: UriReading;
}

/** Most non-public resolver answers named in one reason message. */
const maxAnswersInMessage = 3;

// What an analysis finds besides its reasons. A synchronous decision writes it into `found`, one record reused by every
// link (no object per link: the analysis is folded into the decision that reads it at once); `prepareLink`, whose
// decision waits for resolution, keeps a copy.
interface LinkFindings {
  /** custom rule hits, in policy order */
  ruleHits: readonly RuleHit[];
  /** the host name resolution must check, when the link is otherwise allowed to a network destination */
  resolveName: string | null;
  /**
   * the names other readers take from the same host (`ParsedUri.otherHosts`: the UTS #46 transitional `fass.de` for
   * `faß.de`, …), resolved beside it: any of them answering a non-public address denies (one that does not resolve
   * reaches nothing)
   */
  otherNames: readonly string[];
  /** the facts custom rules read, when the uri parsed and rules (or the caller) need them */
  facts: RuleFacts | null;
  /** the canonical origin is in `links.allowNonPublicOrigins` */
  exempt: boolean;
}

const noRuleHits: readonly RuleHit[] = Object.freeze([]);
const noNames: readonly string[] = Object.freeze([]);

// written by `analyzeLink` as its last step and read right after it, before anything else can run
const found: LinkFindings = {
  ruleHits: noRuleHits,
  resolveName: null,
  otherNames: noNames,
  facts: null,
  exempt: false,
};

/**
 * Pre-read decision for one link; synchronous, judges names by their text unless `resolved` is given.
 * Reasons come in a fixed order: input, uri syntax, parser confusion, userinfo, scheme, address, origin,
 * servers, discovery, declared size, declared type, resolution, custom rules. Deny overrides; `rule.*` hits may add
 * `partial`. A uri that does not parse skips the custom rules (their facts need a parsed uri). A link whose
 * canonical origin is in `links.allowNonPublicOrigins` skips the address rules (its literal host and its
 * resolver answers may be non-public) and nothing else.
 */
export function decideLink(policy: Policy, input: LinkInput, options?: LinkDecisionOptions): Decision {
  // no default `{}`: an object per link on the hot path
  const reasons = analyzeLink(policy, input, false, options?.reading);
  return finishLink(policy, reasons, found, options?.resolved);
}

/** A link analysed once: the host names resolution must check, and the decision once their answers are in. */
export interface PreparedLink {
  /** names to resolve (none for ip literals, opaque uris or links already denied) */
  readonly names: readonly string[];
  /** the decision, given the answers for `names` (a name absent from `resolved` did not resolve); may be called again */
  decide(resolved?: ReadonlyMap<string, readonly string[]>): Decision;
}

/** Analyses a link once for a caller that resolves names in between (the gate's `decide`); same decisions as `decideLink`. */
export function prepareLink(policy: Policy, input: LinkInput): PreparedLink {
  const reasons = analyzeLink(policy, input);
  const findings: LinkFindings = { ...found };
  const names =
    findings.resolveName === null || reasons.length > 0 || anyDeny(findings.ruleHits)
      ? []
      : [findings.resolveName, ...findings.otherNames];
  return { names, decide: (resolved) => finishLink(policy, [...reasons], findings, resolved) };
}

/** Host names of a link that resolution must check (none for ip literals, opaque uris or denied links). */
export function linkNamesToResolve(policy: Policy, input: LinkInput): string[] {
  return [...prepareLink(policy, input).names];
}

// the decision: an analysis's reasons (the list is consumed), the resolution reason and the rule hits
function finishLink(
  policy: Policy,
  reasons: Reason[],
  findings: Readonly<LinkFindings>,
  resolved: ReadonlyMap<string, readonly string[]> | undefined,
): Decision {
  const { ruleHits, resolveName, otherNames, exempt } = findings;
  if (resolved !== undefined && resolveName !== null && reasons.length === 0 && !anyDeny(ruleHits)) {
    const resolution = resolutionReason(resolveName, resolved.get(resolveName), exempt);
    if (resolution !== undefined) reasons.push(resolution);
    for (let i = 0; i < otherNames.length; i++) {
      const other = otherNames[i] as string;
      const answers = resolved.get(other);
      if (resolution !== undefined || answers === undefined || answers.length === 0) continue;
      const otherReason = resolutionReason(other, answers, exempt, resolveName);
      if (otherReason !== undefined) {
        reasons.push(otherReason);
        break;
      }
    }
  }
  // every built-in reason denies; rule hits bring their own effect. Indexed loops on this path: `for…of` over a
  // frozen list (the shared empty ones) allocates an iterator and its results per link
  let effect: Effect = reasons.length > 0 ? 'deny' : 'allow';
  for (let i = 0; i < ruleHits.length; i++) {
    const hit = ruleHits[i] as RuleHit;
    effect = strongerEffect(effect, hit.effect);
    reasons.push(hit.reason);
  }
  return { effect, reasons, policy: copyRef(policy.ref) };
}

// each decision carries its own copy of the policy's ref (a caller may change it); built field by field, in the ref's
// own order, which V8 does without the generic object spread
function copyRef(ref: Readonly<PolicyRef>): PolicyRef {
  return ref.bundleRevision === undefined
    ? { id: ref.id, version: ref.version, digest: ref.digest }
    : { id: ref.id, version: ref.version, digest: ref.digest, bundleRevision: ref.bundleRevision };
}

/** The facts the link stage's custom rules read for this input (`src/policy/rule-facts.ts`); null when the uri does not parse. */
export function linkRuleFacts(policy: Policy, input: LinkInput): RuleFacts | null {
  analyzeLink(policy, input, true);
  return found.facts;
}

const emptyOrigins = compileOriginAllowList([]);

// the uri as a reader that takes `host` from its authority sees it
function readAs(uri: ParsedUri, host: UriHost): ParsedUri {
  return {
    ok: true,
    scheme: uri.scheme,
    schemeFacts: uri.schemeFacts,
    special: uri.special,
    hasAuthority: uri.hasAuthority,
    host,
    port: uri.port,
    explicitPort: uri.explicitPort,
    userinfo: uri.userinfo,
    confusions: uri.confusions,
    otherHosts: uri.otherHosts,
    url: uri.url,
  };
}

function anyDeny(hits: readonly RuleHit[]): boolean {
  for (let i = 0; i < hits.length; i++) if ((hits[i] as RuleHit).effect === 'deny') return true;
  return false;
}

// the built-in reasons of a link (a new list, in their fixed order; all deny), the rest of what it finds in `found`
function analyzeLink(policy: Policy, input: LinkInput, wantFacts = false, reading?: UriReading): Reason[] {
  const settings = policy.link;
  // made at the first reason, of the size it needs (most links have none or one)
  let reasons: Reason[] | undefined;
  const { link } = input;
  const server = input.server ?? 'default';
  // a link-stage line asks whether the link may be read from the server that returned it, so `readFrom` defaults to `server`
  const readFrom = input.readFrom ?? server;
  const uri = parseUri(link.uri, reading);

  let resolveName: string | null = null;
  let otherNames: string[] | undefined;
  let addressClass: string | null = null;
  let custom = false;
  let exempt = false;
  if (!uri.ok) {
    reasons = add(reasons, reason('uri.invalid', 'links.uri', uri.message));
  } else {
    if (uri.confusions.length > 0) {
      reasons = add(reasons, reason('uri.parser-confusion', 'links.uri', `uri has ${uri.confusions.join(' and ')}`));
    }
    if (uri.userinfo)
      reasons = add(
        reasons,
        reason('uri.userinfo', 'links.userinfo', 'uri carries userinfo (a user, password or `@`)'),
      );
    // a never-allowed scheme stays denied even in a policy built without the loader's check (fail closed)
    const scheme = uri.schemeFacts;
    const listed = settings.schemes.has(uri.scheme);
    const network = listed && !scheme.neverAllowed;
    custom = !network && !scheme.knownNonCustom;
    if (!network && !custom) {
      reasons = add(
        reasons,
        reason(
          'uri.scheme-not-allowed',
          'links.schemes',
          listed
            ? `scheme ${quoteValue(uri.scheme)} is never allowed`
            : `scheme ${quoteValue(uri.scheme)} is not in \`links.schemes\``,
        ),
      );
    } else if (custom && !settings.customSchemesAllowed) {
      reasons = add(
        reasons,
        reason(
          'uri.scheme-not-allowed',
          'links.customSchemes',
          `custom scheme ${quoteValue(uri.scheme)} is denied by \`links.customSchemes\``,
        ),
      );
    }
    // the origin is made only for a policy that lists exempt origins
    if (settings.exemptOrigins.size > 0) {
      const origin = uriOrigin(uri);
      exempt = origin !== null && settings.exemptOrigins.has(origin);
    }
    const address = judgeHost(settings, uri, custom, exempt);
    addressClass = address.addressClass;
    if (address.reason !== undefined) reasons = add(reasons, address.reason);
    if (network && address.resolvable) {
      resolveName = uri.host?.text ?? null;
      const others = uri.otherHosts;
      for (let i = 0; i < others.length; i++) {
        const other = others[i] as UriHost;
        if (other.kind === 'name' && other.text !== resolveName) (otherNames ??= []).push(other.text);
      }
    }
    if (network && settings.origins !== null && !originAllowed(settings.origins, uri)) {
      const origin = uriOrigin(uri);
      const named = origin === null ? 'uri has no origin' : `origin ${quoteValue(origin)}`;
      reasons = add(reasons, reason('origin.not-allowed', 'links.origins', `${named} is not in \`links.origins\``));
    } else if (network && settings.origins !== null) {
      // another reader of the same host (IDNA transitional, decimal IPv4) must get the same answer
      const other = uri.otherHosts.find((host) => !originAllowed(settings.origins ?? emptyOrigins, readAs(uri, host)));
      if (other !== undefined)
        reasons = add(
          reasons,
          reason(
            'origin.not-allowed',
            'links.origins',
            `origin ${quoteValue(uriOrigin(uri) ?? '')} is read with host ${quoteValue(other.text)} by other parsers, which is not in \`links.origins\``,
          ),
        );
    }
  }

  reasons = serverReasons(settings, server, readFrom, reasons);
  if (settings.requireDiscovered && input.discovered === false) {
    reasons = add(
      reasons,
      reason(
        'link.not-discovered',
        'hook.requireDiscovered',
        'the uri was not returned by a tool or listed as a resource earlier in this session',
      ),
    );
  }
  const size = sizeReason(settings, link.size);
  if (size !== undefined) reasons = add(reasons, size);
  if (settings.denyDeclaredTypes && link.mimeType !== undefined && !settings.declaredTypeAllowed(link.mimeType)) {
    reasons = add(
      reasons,
      reason(
        'type.declared-not-allowed',
        'links.denyDeclaredTypes',
        `declared type ${quoteValue(link.mimeType)} is not allowed by \`content.allow\``,
      ),
    );
  }

  const facts =
    uri.ok && (settings.hasLinkRules || wantFacts)
      ? freezeFacts({
          server,
          readFrom,
          uri: link.uri,
          scheme: uri.scheme,
          host: uri.host?.text ?? null,
          port: uri.port,
          origin: uriOrigin(uri),
          path: uri.url.pathname,
          name: link.name,
          mimeType: link.mimeType === undefined ? null : normalizeMime(link.mimeType),
          size: link.size ?? null,
          addressClass,
          customScheme: custom,
        })
      : null;
  const ruleHits = facts !== null && settings.hasLinkRules ? runRules(policy, 'link', facts) : noRuleHits;
  found.ruleHits = ruleHits;
  found.resolveName = resolveName;
  found.otherNames = otherNames ?? noNames;
  found.facts = facts;
  found.exempt = exempt;
  return reasons ?? [];
}

// Fail closed: a name asked for and not answered (absent, `[]`, resolver error or timeout) is `uri.unresolved`;
// any non-public answer (DNS rebinding lists every answer) is `uri.non-public-address`. An exempt origin may
// resolve to non-public addresses, never to text that is not an address.

// why `name`'s answers deny, or undefined; `readFrom`: the link's own host, when `name` is another reader's reading of it
function resolutionReason(
  name: string,
  answers: readonly string[] | undefined,
  exempt: boolean,
  readFrom?: string,
): Reason | undefined {
  if (answers === undefined || answers.length === 0) {
    return reason('uri.unresolved', 'links.resolveNames', `host ${quoteValue(name)} does not resolve`);
  }
  const bad = answers.map(classifyAddress).filter((v) => !v.public && !(exempt && v.class !== 'invalid'));
  if (bad.length === 0) return undefined;
  const listed = bad
    .slice(0, maxAnswersInMessage)
    .map((v) => `${quoteValue(v.address)} (${v.description})`)
    .join(', ');
  const more = bad.length > maxAnswersInMessage ? ` and ${bad.length - maxAnswersInMessage} more` : '';
  return reason(
    'uri.non-public-address',
    'links.denyNonPublicAddresses',
    readFrom === undefined
      ? `host ${quoteValue(name)} resolves to non-public ${listed}${more}`
      : `host ${quoteValue(readFrom)} is read as ${quoteValue(name)} by other parsers, which resolves to non-public ${listed}${more}`,
  );
}

// `list` with `item` added: a new list of one for the first
function add(list: Reason[] | undefined, item: Reason): Reason[] {
  if (list === undefined) return [item];
  list.push(item);
  return list;
}

function serverReasons(
  settings: LinkSettings,
  server: string,
  readFrom: string,
  reasons: Reason[] | undefined,
): Reason[] | undefined {
  let out = reasons;
  const servers = settings.servers;
  if (servers !== null) {
    if (!servers.has(server)) out = add(out, serverNotAllowed(server));
    if (readFrom !== server && !servers.has(readFrom)) out = add(out, serverNotAllowed(readFrom));
  }
  if (settings.requireSameServer && readFrom !== server) {
    out = add(
      out,
      reason(
        'server.mismatch',
        'links.requireSameServer',
        `the read would go to server ${quoteValue(readFrom)}, not ${quoteValue(server)} that returned the link`,
      ),
    );
  }
  return out;
}

function serverNotAllowed(id: string): Reason {
  return reason('server.not-allowed', 'links.servers', `server ${quoteValue(id)} is not in \`links.servers\``);
}

function sizeReason(settings: LinkSettings, size: number | undefined): Reason | undefined {
  if (size === undefined) return undefined;
  if (!Number.isSafeInteger(size) || size < 0) {
    return {
      code: 'input.invalid',
      rule: 'input',
      stage: 'input',
      message: `field \`link.size\` must be a whole number of bytes ≥ 0, got ${quoteValue(String(size))}`,
    };
  }
  if (size > settings.maxDeclaredBytes) {
    return reason(
      'size.declared-too-large',
      'links.maxDeclaredBytes',
      `declared size ${size} bytes is over \`links.maxDeclaredBytes\` ${settings.maxDeclaredBytes}`,
    );
  }
  return undefined;
}

function reason(code: ReasonCode, rule: string, message: string): Reason {
  return { code, rule, stage: 'link', message };
}
