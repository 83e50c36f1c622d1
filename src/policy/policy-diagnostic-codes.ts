/** Every code a policy diagnostic may carry, with a one-line description; stable API for `lint` (SARIF ruleIds). */
export const policyDiagnosticCodes = {
  'yaml.syntax': 'the file is not well-formed yaml',
  'yaml.duplicate-key': 'a mapping repeats a key',
  'yaml.anchor': 'anchors are not allowed: every value is written where it applies',
  'yaml.alias': 'aliases are not allowed: every value is written where it applies',
  'yaml.merge-key': 'merge keys (`<<`) are not allowed',
  'yaml.tag': 'custom or unresolved yaml tags are not allowed',
  'yaml.multiple-documents': 'a policy file holds exactly one yaml document',
  'yaml.not-a-mapping': 'the document root must be a mapping',
  'schema.missing-key': 'a required key is missing',
  'schema.unknown-key': 'a key the policy schema does not define',
  'schema.type': 'a value has the wrong type',
  'schema.range': 'a number or list length is out of range (limits are finite whole numbers ≥ 1)',
  'schema.format': 'a string does not have the expected format',
  'schema.enum': 'a value is not one of the allowed choices',
  'schema.invalid': 'a value does not match the policy schema',
  'policy.unknown-mime': 'a `content.allow` entry is not in the kinds table',
  'policy.review-dates': 'the review expires before it was approved',
  'policy.duplicate-rule-id': 'two rules share an id',
  'policy.never-allowed-scheme':
    '`links.schemes` lists a scheme no link may use (`data`, `javascript`, `vbscript`, `livescript`)',
  'logic.unknown-operator': 'a json-logic operator outside the allow-list',
  'logic.arity': 'a json-logic operator has the wrong number of arguments',
  'logic.unknown-fact': 'a `var` path the rule stage does not provide',
  'logic.forbidden-path': 'a path names `__proto__`, `constructor` or `prototype`',
  'logic.invalid-expression': 'a json-logic node that is not an operation, a literal or a literal path',
} as const satisfies Record<string, string>;

/** A policy diagnostic code (`yaml.*`, `schema.*`, `policy.*`, `logic.*`). */
export type PolicyDiagnosticCode = keyof typeof policyDiagnosticCodes;
