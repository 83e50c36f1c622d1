import { declaredTypeAllowed } from '../content/kinds.ts';
import type { NameRules } from '../link/classify-host-name.ts';
import { compileExemptOrigins } from '../link/exempt-origins.ts';
import { compileNamePatterns, type NamePatterns } from '../link/name-patterns.ts';
import { compileOriginAllowList, type OriginAllowList } from '../link/origin-allow-list.ts';
import type { CompiledRule } from './compile-rule.ts';
import type { PolicyDocument } from './policy-schema.ts';

/** A policy's link settings, compiled once when the policy is built (sets, canonical origins and names). */
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
  /** `declaredTypeAllowed(content.allow, mimeType)`, with the answers for recent mime types kept */
  readonly declaredTypeAllowed: (mimeType: string) => boolean;
  readonly hasLinkRules: boolean;
  readonly hasCredentialRules: boolean;
}

/** Compiles a validated document's link settings; called once, by `buildPolicy`. */
export function compileLinkSettings(document: Readonly<PolicyDocument>, rules: readonly CompiledRule[]): LinkSettings {
  const links = document.links;
  const internalNames = compileNamePatterns(links.internalNames ?? []);
  return Object.freeze({
    schemes: new Set(links.schemes),
    customSchemesAllowed: links.customSchemes === 'allow',
    origins: links.origins === undefined ? null : compileOriginAllowList(links.origins),
    servers: links.servers === undefined ? null : new Set(links.servers),
    requireSameServer: links.requireSameServer,
    requireDiscovered: document.hook?.requireDiscovered === true,
    denyNonPublicAddresses: links.denyNonPublicAddresses,
    internalNames,
    networkNameRules: Object.freeze({ internalNames, opaqueAuthority: false }),
    opaqueNameRules: Object.freeze({ internalNames, opaqueAuthority: true }),
    exemptOrigins: compileExemptOrigins(links.allowNonPublicOrigins ?? []),
    maxDeclaredBytes: links.maxDeclaredBytes,
    denyDeclaredTypes: links.denyDeclaredTypes === true,
    declaredTypeAllowed: memoizeDeclaredType(document.content.allow),
    hasLinkRules: rules.some((r) => r.stage === 'link'),
    hasCredentialRules: rules.some((r) => r.stage === 'credential'),
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
