import type { ReasonCode } from '../decision/reason-codes.ts';
import type { PolicyDocument } from '../policy/policy-schema.ts';
import type { RuleStage } from '../policy/rule-facts.ts';

/** One built-in check of a stage, in the order the engine runs them; `rule` is the `reason.rule` its reasons carry. */
export interface CheckInfo {
  readonly stage: RuleStage;
  /** `reason.rule` of its reasons: a policy setting (`links.schemes`) or a built-in check (`links.uri`, `read`, `content`) */
  readonly rule: string;
  /** what it checks, one lowercase line */
  readonly title: string;
  /** reason codes it may raise */
  readonly codes: readonly ReasonCode[];
  /** facts of the stage it reads (names of `ruleFacts[stage]`, or input fields for the read envelope) */
  readonly reads: readonly string[];
  /** the policy setting it enforces, dotted; null for a check that is always on */
  readonly setting: string | null;
  /** whether the check can raise a reason under this policy (its setting present and turned on) */
  readonly enabled: (doc: Readonly<PolicyDocument>) => boolean;
}

const always = (): boolean => true;
const check = (
  stage: RuleStage,
  rule: string,
  title: string,
  codes: readonly ReasonCode[],
  reads: readonly string[],
  setting: string | null,
  enabled: (doc: Readonly<PolicyDocument>) => boolean = always,
): CheckInfo => Object.freeze({ stage, rule, title, codes, reads, setting, enabled });

/** Built-in checks per stage, in engine order (decide-link, decide-credential, decide-read); custom rules run after them. */
export const checkCatalogue: Readonly<Record<RuleStage, readonly CheckInfo[]>> = {
  link: [
    check(
      'link',
      'input',
      'the line is a well-formed link with a whole-number size',
      ['input.invalid'],
      ['size'],
      null,
    ),
    check(
      'link',
      'links.uri',
      'the uri parses, without parser-confusion forms',
      ['uri.invalid', 'uri.parser-confusion'],
      ['uri'],
      null,
    ),
    check('link', 'links.userinfo', 'the uri carries no user or password', ['uri.userinfo'], ['uri'], null),
    check(
      'link',
      'links.schemes',
      'a known non-custom scheme is listed in `links.schemes`',
      ['uri.scheme-not-allowed'],
      ['scheme', 'customScheme'],
      'links.schemes',
    ),
    check(
      'link',
      'links.customSchemes',
      'a custom scheme is allowed by `links.customSchemes`',
      ['uri.scheme-not-allowed'],
      ['scheme', 'customScheme'],
      'links.customSchemes',
      (d) => d.links.customSchemes === 'deny',
    ),
    check(
      'link',
      'links.denyNonPublicAddresses',
      'the host is a public address or name',
      ['uri.non-public-address'],
      ['host', 'addressClass'],
      'links.denyNonPublicAddresses',
      (d) => d.links.denyNonPublicAddresses,
    ),
    check(
      'link',
      'links.origins',
      'the origin is in `links.origins`',
      ['origin.not-allowed'],
      ['origin'],
      'links.origins',
      (d) => d.links.origins !== undefined,
    ),
    check(
      'link',
      'links.servers',
      'the server is in `links.servers`',
      ['server.not-allowed'],
      ['server', 'readFrom'],
      'links.servers',
      (d) => d.links.servers !== undefined,
    ),
    check(
      'link',
      'links.requireSameServer',
      'the read goes to the server that returned the link',
      ['server.mismatch'],
      ['server', 'readFrom'],
      'links.requireSameServer',
      (d) => d.links.requireSameServer,
    ),
    check(
      'link',
      'hook.requireDiscovered',
      'a uri read through a host hook was returned or listed earlier in the session',
      ['link.not-discovered'],
      ['discovered'],
      'hook.requireDiscovered',
      (d) => d.hook?.requireDiscovered === true,
    ),
    check(
      'link',
      'links.maxDeclaredBytes',
      'the declared size is within the cap',
      ['size.declared-too-large'],
      ['size'],
      'links.maxDeclaredBytes',
    ),
    check(
      'link',
      'links.denyDeclaredTypes',
      'the declared type is allowed by `content.allow`',
      ['type.declared-not-allowed'],
      ['mimeType'],
      'links.denyDeclaredTypes',
      (d) => d.links.denyDeclaredTypes === true,
    ),
    check(
      'link',
      'links.resolveNames',
      'the host name resolves, to public addresses only',
      ['uri.unresolved', 'uri.non-public-address'],
      ['host'],
      'links.resolveNames',
      (d) => d.links.resolveNames === true,
    ),
  ],
  credential: [
    check(
      'credential',
      'credentials.forward',
      'the credential stays on the origin it was issued for',
      ['uri.invalid', 'uri.parser-confusion', 'uri.userinfo', 'credential.forward-disabled', 'credential.cross-origin'],
      ['kind', 'from', 'to', 'fromOrigin', 'toOrigin', 'hops', 'sameOrigin'],
      'credentials.forward',
    ),
  ],
  read: [
    check(
      'read',
      'links.requireSameServer',
      'the read went to the server that returned the link',
      ['server.mismatch'],
      ['server', 'readFrom'],
      'links.requireSameServer',
      (d) => d.links.requireSameServer,
    ),
    check(
      'read',
      'read.readTimeoutMs',
      'the read finished within the deadline',
      ['read.timeout'],
      ['elapsedMs'],
      'read.readTimeoutMs',
    ),
    check(
      'read',
      'read',
      'the result is final, known and has contents',
      ['read.error', 'read.result-type-unknown', 'read.empty', 'content.shape', 'read.uri-mismatch'],
      ['resultType', 'itemCount', 'uri'],
      null,
    ),
    check(
      'read',
      'read.answerInputRequired',
      'the result is not `input_required`',
      ['read.input-required'],
      ['resultType'],
      'read.answerInputRequired',
    ),
    check(
      'read',
      'read.allowTaskResults',
      '`task` results are enabled',
      ['read.result-type-unknown'],
      ['resultType'],
      'read.allowTaskResults',
      (d) => d.read.allowTaskResults === false,
    ),
    check(
      'read',
      'read.maxItems',
      'the item count is within the cap',
      ['content.too-many-items'],
      ['itemCount'],
      'read.maxItems',
    ),
    check(
      'read',
      'content',
      'every item has exactly one of `text` and `blob`, in canonical base64',
      ['content.shape'],
      ['itemCount'],
      null,
    ),
    check(
      'read',
      'read.maxItemBytes',
      'every item is within the per-item cap',
      ['content.too-large'],
      ['totalBytes'],
      'read.maxItemBytes',
      (d) => d.read.maxItemBytes !== undefined,
    ),
    check(
      'read',
      'read.maxBytes',
      'all items together are within the cap',
      ['content.too-large'],
      ['totalBytes'],
      'read.maxBytes',
    ),
    check(
      'read',
      'content.allow',
      'each item is an allowed, inert type that matches its declaration',
      [
        'content.executable',
        'content.type-not-allowed',
        'content.mime-mismatch',
        'content.unsafe-text',
        'content.uninterpretable',
      ],
      ['kinds', 'mimeTypes'],
      'content.allow',
    ),
    check(
      'read',
      'content.maxImagePixels',
      'each image is within the pixel cap',
      ['content.image-too-large'],
      ['kinds'],
      'content.maxImagePixels',
      (d) => d.content.maxImagePixels !== undefined,
    ),
    check(
      'read',
      'content.flagInvisibleText',
      'text with bidi controls or zero-width characters is withheld as partial',
      ['content.unsafe-text'],
      ['kinds'],
      'content.flagInvisibleText',
      (d) => d.content.flagInvisibleText === true,
    ),
  ],
};

/** The value of the dotted `setting` in the document; undefined when absent. */
export function settingValue(doc: Readonly<PolicyDocument>, setting: string): unknown {
  let value: unknown = doc;
  for (const segment of setting.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** True when the dotted `setting` is present in the document. */
export function settingPresent(doc: Readonly<PolicyDocument>, setting: string): boolean {
  return settingValue(doc, setting) !== undefined;
}

/**
 * What rule coverage counts for a policy, as `reason.rule` names: every setting it contains that can raise a reason
 * (present and turned on), and `rules.<id>` of every custom rule. Sorted; built-in checks that are always on are not counted.
 */
export function coverageTargets(doc: Readonly<PolicyDocument>): string[] {
  const targets = new Set<string>();
  for (const checks of Object.values(checkCatalogue)) {
    for (const c of checks)
      if (c.setting !== null && settingPresent(doc, c.setting) && c.enabled(doc)) targets.add(c.rule);
  }
  for (const rule of doc.rules ?? []) targets.add(`rules.${rule.id}`);
  return [...targets].sort();
}
