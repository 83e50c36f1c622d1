import { policyDiagnosticCodes, type PolicyDiagnosticCode } from '../policy/policy-diagnostic-codes.ts';

/** What a semantic lint finding is about, with its default severity; codes are stable API (SARIF ruleIds). */
export const lintCodes = {
  'lint.rule-never-fires': { severity: 'error', description: 'a custom rule whose condition is false for every input' },
  'lint.rule-always-fires': { severity: 'error', description: 'a custom rule whose condition is true for every input' },
  'lint.rule-type-mismatch': { severity: 'error', description: 'a rule compares a fact with a value of another type' },
  'lint.rule-shadowed': {
    severity: 'warning',
    description: 'an earlier rule fires whenever this one does, with an equal or stronger effect',
  },
  'lint.origin-too-broad': {
    severity: 'error',
    description: 'an origin entry admits every host, or every host under a top-level label',
  },
  'lint.origin-invalid': {
    severity: 'error',
    description: 'an origin entry does not parse as `scheme://host[:port]` and matches nothing',
  },
  'lint.dangerous-scheme': {
    severity: 'error',
    description: '`links.schemes` lists a local, script or protocol-smuggling scheme',
  },
  'lint.non-public-allowed': {
    severity: 'warning',
    description: 'non-public destinations (loopback, private, metadata) are not denied',
  },
  'lint.non-public-exemption': { severity: 'warning', description: 'an origin is exempt from the address rules' },
  'lint.same-server-off': {
    severity: 'warning',
    description: 'a link may be read from a server other than the one that returned it',
  },
  'lint.fetch-cleartext': { severity: 'warning', description: 'direct fetch may use cleartext `http`' },
  'lint.content-type-risky': {
    severity: 'warning',
    description: '`content.allow` lists active, opaque or container content',
  },
  'lint.consumers-dropped': {
    severity: 'warning',
    description:
      '`content.consumers` leaves out a consumer of the default profile: bodies only it reads are not judged',
  },
  'lint.cap-far-above-default': { severity: 'warning', description: 'a cap is far above the default policy' },
  'lint.limit-out-of-range': { severity: 'warning', description: 'a limit is too small to work' },
  'lint.limit-inconsistent': { severity: 'warning', description: 'two limits contradict each other' },
  'lint.review-expired': { severity: 'error', description: 'the security review has expired' },
  'lint.review-expiring': { severity: 'warning', description: 'the security review expires within the warning window' },
  'lint.review-unsigned': {
    severity: 'error',
    description: 'the policy has no review signature (`POLICY.sig`) while allowed signers are given',
  },
  'lint.review-signature-invalid': {
    severity: 'error',
    description: 'a review signature is there but does not hold (bytes changed, namespace, signer, expiry)',
  },
} as const satisfies Record<string, { severity: 'error' | 'warning'; description: string }>;

/** A semantic lint code (`lint.*`). */
export type LintCode = keyof typeof lintCodes;

/** Any code a lint run may report: the loader's (`yaml.*`, `schema.*`, `policy.*`, `logic.*`) or `lint.*`. */
export type AnyLintCode = PolicyDiagnosticCode | LintCode;

/** One reporting rule of `lint`, as SARIF lists it: stable id, description, level, CVSS-like severity and tags. */
export interface LintRuleInfo {
  readonly id: string;
  readonly description: string;
  readonly level: 'error' | 'warning';
  /** 0.0 to 10.0 as a numeric string, the scale GitHub code scanning reads */
  readonly securitySeverity: string;
  readonly tags: readonly string[];
}

// how much a finding weakens the gate if ignored (GitHub: ≥ 9 critical, ≥ 7 high, ≥ 4 medium, else low)
const securitySeverity: Readonly<Record<string, string>> = {
  'lint.rule-always-fires': '4.0',
  'lint.rule-never-fires': '6.5',
  'lint.rule-type-mismatch': '6.5',
  'lint.rule-shadowed': '2.0',
  'lint.origin-too-broad': '8.5',
  'lint.origin-invalid': '3.0',
  'lint.dangerous-scheme': '9.0',
  'lint.non-public-allowed': '8.8',
  'lint.non-public-exemption': '6.0',
  'lint.same-server-off': '7.0',
  'lint.fetch-cleartext': '5.5',
  'lint.content-type-risky': '7.5',
  'lint.cap-far-above-default': '5.0',
  'lint.limit-out-of-range': '3.0',
  'lint.limit-inconsistent': '3.0',
  'lint.review-expired': '5.0',
  'lint.review-expiring': '2.0',
  'lint.review-unsigned': '4.0',
  'lint.review-signature-invalid': '7.0',
  'logic.forbidden-path': '8.0',
};

// a policy that does not load makes every host refuse to start: a broken gate, not a loosened one
const loaderSeverity = '5.0';

function tagsOf(code: string): string[] {
  const family = code.split('.', 1)[0] ?? code;
  const tags = ['security', 'linkgate', `linkgate/${family}`];
  if (code.startsWith('lint.rule-') || family === 'logic') tags.push('correctness');
  return tags;
}

/** Every rule `lint` may report, sorted by id; the loader's codes first-class alongside `lint.*`. */
export function lintRuleCatalogue(): LintRuleInfo[] {
  const rules: LintRuleInfo[] = [];
  for (const [id, description] of Object.entries(policyDiagnosticCodes)) {
    rules.push({
      id,
      description,
      level: 'error',
      securitySeverity: securitySeverity[id] ?? loaderSeverity,
      tags: tagsOf(id),
    });
  }
  for (const [id, info] of Object.entries(lintCodes)) {
    rules.push({
      id,
      description: info.description,
      level: info.severity,
      securitySeverity: securitySeverity[id] ?? loaderSeverity,
      tags: tagsOf(id),
    });
  }
  return rules.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
