import { declaredTypeAllowed } from '../content/kinds.ts';
import type { Policy } from '../policy/policy.ts';
import type { NameRules } from './classify-host-name.ts';
import { compileExemptOrigins } from './exempt-origins.ts';
import { compileNamePatterns, type NamePatterns } from './name-patterns.ts';
import { compileOriginAllowList, type OriginAllowList } from './origin-allow-list.ts';

/** A policy's link settings, compiled once per policy (sets, canonical origins and names). */
export interface LinkSettings {
  readonly schemes: ReadonlySet<string>;
  readonly customSchemesAllowed: boolean;
  /** null when `links.origins` is absent (any origin that passes the address rules) */
  readonly origins: OriginAllowList | null;
  /** null when `links.servers` is absent (any server) */
  readonly servers: ReadonlySet<string> | null;
  readonly requireSameServer: boolean;
  /** a link-stage input with `discovered: false` is denied */
  readonly requireDiscovered: boolean;
  readonly denyNonPublicAddresses: boolean;
  readonly internalNames: NamePatterns;
  /** how names of network schemes are judged (single labels are intranet names) */
  readonly networkNameRules: NameRules;
  /** how opaque custom-scheme authorities are judged (a single label is an identifier) */
  readonly opaqueNameRules: NameRules;
  /** canonical origins of `links.allowNonPublicOrigins`, exempt from the address rules only; empty when absent */
  readonly exemptOrigins: ReadonlySet<string>;
  /** bytes */
  readonly maxDeclaredBytes: number;
  readonly denyDeclaredTypes: boolean;
  /** `declaredTypeAllowed(content.allow, mimeType)`, memoized per policy */
  readonly declaredTypeAllowed: (mimeType: string) => boolean;
  readonly hasLinkRules: boolean;
  readonly hasCredentialRules: boolean;
}

const compiled = new WeakMap<Policy, LinkSettings>();

/** The compiled link settings of a policy; computed on first use and cached for the policy's lifetime. */
export function linkSettings(policy: Policy): LinkSettings {
  let settings = compiled.get(policy);
  if (settings === undefined) {
    settings = compile(policy);
    compiled.set(policy, settings);
  }
  return settings;
}

function compile(policy: Policy): LinkSettings {
  const links = policy.document.links;
  const internalNames = compileNamePatterns(links.internalNames ?? []);
  return Object.freeze({
    schemes: new Set(links.schemes),
    customSchemesAllowed: links.customSchemes === 'allow',
    origins: links.origins === undefined ? null : compileOriginAllowList(links.origins),
    servers: links.servers === undefined ? null : new Set(links.servers),
    requireSameServer: links.requireSameServer,
    requireDiscovered: policy.document.hook?.requireDiscovered === true,
    denyNonPublicAddresses: links.denyNonPublicAddresses,
    internalNames,
    networkNameRules: Object.freeze({ internalNames, opaqueAuthority: false }),
    opaqueNameRules: Object.freeze({ internalNames, opaqueAuthority: true }),
    exemptOrigins: compileExemptOrigins(links.allowNonPublicOrigins ?? []),
    maxDeclaredBytes: links.maxDeclaredBytes,
    denyDeclaredTypes: links.denyDeclaredTypes === true,
    declaredTypeAllowed: memoizeDeclaredType(policy.document.content.allow),
    hasLinkRules: policy.rules.some((r) => r.stage === 'link'),
    hasCredentialRules: policy.rules.some((r) => r.stage === 'credential'),
  });
}

/** Most distinct declared mime types remembered per policy; past it, answers are computed each time. */
const maxRememberedMimeTypes = 256;

function memoizeDeclaredType(allow: readonly string[]): (mimeType: string) => boolean {
  const memo = new Map<string, boolean>();
  return (mimeType) => {
    let allowed = memo.get(mimeType);
    if (allowed === undefined) {
      allowed = declaredTypeAllowed(allow, mimeType);
      if (memo.size < maxRememberedMimeTypes) memo.set(mimeType, allowed);
    }
    return allowed;
  };
}
