// The address rules of a link decision (`links.denyNonPublicAddresses`): its host, and every other reading of it.
import {
  type AddressClass,
  type AddressVerdict,
  classifyIpLiteral,
  ipLiteralClass,
  nonPublicLiteral,
} from '../link/classify-address.ts';
import { classifyHostName } from '../link/classify-host-name.ts';
import type { ParsedUri, UriHost } from '../link/parse-uri.ts';
import type { LinkSettings } from '../policy/link-settings.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { Reason } from '../decision/decision.ts';

/** What the host of a link is to the address rules. */
export interface HostJudgement {
  readonly reason?: Reason;
  /** `public`, `loopback`, … for ip literals; null for names and uris without a host */
  readonly addressClass: string | null;
  /** a name that passed the text checks (or is exempt), so resolution may judge it */
  readonly resolvable: boolean;
}

// the judgements without a reason, shared so the allow path allocates nothing here
const unjudged: HostJudgement = Object.freeze({ addressClass: null, resolvable: false });
const resolvableName: HostJudgement = Object.freeze({ addressClass: null, resolvable: true });

/**
 * Judges the host of a parsed uri by `links.denyNonPublicAddresses`: the WHATWG host, then every other reading of it
 * (the reader that connects may not be WHATWG); `custom`: an opaque custom-scheme authority, `exempt`: an origin in
 * `links.allowNonPublicOrigins`.
 */
export function judgeHost(settings: LinkSettings, uri: ParsedUri, custom: boolean, exempt: boolean): HostJudgement {
  const judgement = judgeOneHost(settings, uri.host, custom, exempt);
  if (judgement.reason !== undefined || !settings.denyNonPublicAddresses || exempt) return judgement;
  // every reading must be public: the reader that connects may not be WHATWG (CVE-2021-29923)
  const others = uri.otherHosts;
  for (let i = 0; i < others.length; i++) {
    const other = others[i] as UriHost;
    const verdict = hostVerdict(settings, other, custom);
    if (verdict === undefined) continue;
    const host = quoteValue(uri.host?.text ?? '');
    return {
      reason: nonPublicReason(`host ${host} is read as ${quoteValue(other.text)} by other parsers, which ${verdict}`),
      addressClass: judgement.addressClass,
      resolvable: false,
    };
  }
  return judgement;
}

// why `host` is not public, as words after "which"; undefined when it is public
function hostVerdict(settings: LinkSettings, host: UriHost, custom: boolean): string | undefined {
  if (host.kind !== 'name') {
    const verdict = classifyIpLiteral(host.kind, host.text);
    return verdict.public ? undefined : `is a non-public address: ${verdict.description}`;
  }
  const verdict = classifyHostName(host.text, custom ? settings.opaqueNameRules : settings.networkNameRules);
  return verdict.public ? undefined : verdict.description;
}

function judgeOneHost(settings: LinkSettings, host: UriHost | null, custom: boolean, exempt: boolean): HostJudgement {
  if (host === null) return unjudged;
  if (host.kind !== 'name') {
    if (!settings.denyNonPublicAddresses || exempt) return literalJudgement(ipLiteralClass(host.kind, host.text));
    // classified once: nothing built on the allow path, the verdict's words only for a denial
    const verdict = nonPublicLiteral(host.kind, host.text);
    if (verdict === undefined) return publicLiteral;
    return { reason: nonPublicAddress(host.text, verdict), addressClass: verdict.class, resolvable: false };
  }
  if (!settings.denyNonPublicAddresses) return unjudged;
  // an exempt origin skips the name rules; its answers must still resolve (`uri.unresolved` fails closed)
  if (exempt) return custom ? unjudged : resolvableName;
  const verdict = classifyHostName(host.text, custom ? settings.opaqueNameRules : settings.networkNameRules);
  if (verdict.public) return custom ? unjudged : resolvableName;
  return {
    reason: nonPublicReason(`host ${quoteValue(host.text)} ${verdict.description}`),
    addressClass: null,
    resolvable: false,
  };
}

// at most one entry per `AddressClass`
const literalJudgements = new Map<AddressClass, HostJudgement>();
const publicLiteral = literalJudgement('public');

function literalJudgement(addressClass: AddressClass): HostJudgement {
  let judgement = literalJudgements.get(addressClass);
  if (judgement === undefined) {
    judgement = Object.freeze({ addressClass, resolvable: false });
    literalJudgements.set(addressClass, judgement);
  }
  return judgement;
}

function nonPublicAddress(host: string, verdict: AddressVerdict): Reason {
  return nonPublicReason(`host ${quoteValue(host)} is a non-public address: ${verdict.description}`);
}

function nonPublicReason(message: string): Reason {
  return { code: 'uri.non-public-address', rule: 'links.denyNonPublicAddresses', stage: 'link', message };
}
