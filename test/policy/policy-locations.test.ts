import { describe, expect, test } from 'vitest';
import { formatDiagnostic, GateError } from '../../src/errors.ts';
import { checkPolicyText, maxPolicyChars } from '../../src/policy/check-policy.ts';
import { parsePolicy } from '../../src/policy/load-policy.ts';

const file = 'policies/sample.yaml';

// a valid policy; the cases below edit it by 1-based line number
const base = [
  '# yaml-language-server: $schema=../schemas/policy.schema.json', // 1
  'id: sample', // 2
  'version: 1.0.0', // 3
  'review:', // 4
  '  reviewers: [sec]', // 5
  '  date: 2026-01-10', // 6
  '  ticket: LG-1', // 7
  '  expires: 2026-07-10', // 8
  'links:', // 9
  '  schemes: [https]', // 10
  '  customSchemes: allow', // 11
  '  requireSameServer: true', // 12
  '  denyNonPublicAddresses: true', // 13
  '  maxDeclaredBytes: 1024', // 14
  'credentials:', // 15
  '  forward: same-origin', // 16
  'read:', // 17
  '  readTimeoutMs: 1000', // 18
  '  maxBytes: 4096', // 19
  '  maxItems: 8', // 20
  'content:', // 21
  '  allow: [text/plain, image/png]', // 22
  'rules:', // 23
  '  - id: no-exe', // 24
  '    stage: read', // 25
  '    effect: deny', // 26
  '    message: executable kind', // 27
  '    when: {some: [{var: kinds}, {"==": [{var: ""}, exe]}]}', // 28
];

type Edit = { set?: Record<number, string>; drop?: number[]; after?: Record<number, string[]>; append?: string[] };

function edit(e: Edit): string {
  const lines: string[] = [];
  base.forEach((text, i) => {
    const n = i + 1;
    if (e.drop?.includes(n)) return;
    lines.push(e.set?.[n] ?? text);
    lines.push(...(e.after?.[n] ?? []));
  });
  return [...lines, ...(e.append ?? [])].join('\n') + '\n';
}

const when = (expression: string): Edit => ({ set: { 28: `    when: ${expression}` } });

// name, edit, every diagnostic as `line:col code` in order
const cases: [string, Edit, string[]][] = [
  ['wrong type', { set: { 12: '  requireSameServer: yes' } }, ['12:22 schema.type']],
  ['wrong type, a list for a mapping', { set: { 16: '  forward: [same-origin]' } }, ['16:12 schema.enum']],
  ['unknown key', { after: { 20: ['  maxBites: 5'] } }, ['21:3 schema.unknown-key']],
  ['unknown top-level key', { append: ['extra: 1'] }, ['29:1 schema.unknown-key']],
  ['missing key points at its mapping', { drop: [7] }, ['5:3 schema.missing-key']],
  ['missing top-level key points at the root', { drop: [3] }, ['2:1 schema.missing-key']],
  ['missing rule key points at the rule', { drop: [28] }, ['24:5 schema.missing-key']],
  ['empty value points at its key', { set: { 14: '  maxDeclaredBytes:' } }, ['14:3 schema.type']],
  ['duplicate key', { after: { 19: ['  maxBytes: 8192'] } }, ['20:3 yaml.duplicate-key']],
  [
    'anchor and alias',
    { set: { 19: '  maxBytes: &n 4096', 20: '  maxItems: *n' } },
    ['19:13 yaml.anchor', '20:13 yaml.alias'],
  ],
  ['merge key', { after: { 17: ['  <<: {maxItems: 8}'] } }, ['18:3 schema.unknown-key', '18:3 yaml.merge-key']],
  ['limit 0', { set: { 14: '  maxDeclaredBytes: 0' } }, ['14:21 schema.range']],
  ['limit 1.5', { set: { 14: '  maxDeclaredBytes: 1.5' } }, ['14:21 schema.range']],
  ['limit -1', { set: { 14: '  maxDeclaredBytes: -1' } }, ['14:21 schema.range']],
  ['limit .inf', { set: { 14: '  maxDeclaredBytes: .inf' } }, ['14:21 schema.range']],
  ['limit .nan', { set: { 18: '  readTimeoutMs: .nan' } }, ['18:18 schema.range']],
  ['limit as a string', { set: { 20: '  maxItems: "8"' } }, ['20:13 schema.type']],
  ['limit above the safe integers', { set: { 19: '  maxBytes: 1e300' } }, ['19:13 schema.range']],
  ['enum', { set: { 11: '  customSchemes: maybe' } }, ['11:18 schema.enum']],
  ['format', { set: { 2: 'id: Sample' } }, ['2:5 schema.format']],
  ['list item format', { set: { 10: '  schemes: [https, "HTTP"]' } }, ['10:20 schema.format']],
  ['unknown mime type', { set: { 22: '  allow: [text/plain, text/x-nope]' } }, ['22:23 policy.unknown-mime']],
  ['review expires before its date', { set: { 8: '  expires: 2025-07-10' } }, ['8:12 policy.review-dates']],
  ['review date that is not a calendar day', { set: { 6: '  date: 2026-02-30' } }, ['6:9 schema.format']],
  [
    'duplicate rule id',
    { append: ['  - id: no-exe', '    stage: link', '    effect: deny', '    message: again', '    when: true'] },
    ['29:9 policy.duplicate-rule-id'],
  ],
  ['bad rule operator', when('{foo: [1]}'), ['28:12 logic.unknown-operator']],
  ['bad rule arity', when('{"!": [1, 2]}'), ['28:12 logic.arity']],
  ['bad var path', when('{"==": [{var: hots}, 1]}'), ['28:25 logic.unknown-fact']],
  ['var of another stage', when('{var: host}'), ['28:17 logic.unknown-fact']],
  ['forbidden var path', when('{var: kinds.__proto__}'), ['28:17 logic.forbidden-path']],
  ['bad var index', when('{var: kinds.x}'), ['28:17 logic.unknown-fact']],
  [
    'rule in block style',
    { set: { 28: '    when:' }, append: ['      and:', '        - var: itemCount', '        - nope: [1]'] },
    ['31:11 logic.unknown-operator'],
  ],
  ['unresolved tag', { set: { 3: 'version: !semver 1.0.0' } }, ['3:10 yaml.tag']],
  ['second document', { append: ['---', 'id: other'] }, ['29:1 yaml.multiple-documents']],
  // yaml recovers poorly from a syntax error: only the first is reported, the rest are its echoes
  ['yaml syntax error', { set: { 10: '  schemes: [https' } }, ['11:3 yaml.syntax']],
  [
    'yaml syntax error keeps the structural findings before it',
    { set: { 3: 'version: &v 1.0.0', 27: '    message: "open' } },
    ['3:10 yaml.anchor', '27:19 yaml.syntax'],
  ],
  [
    'everything at once, sorted',
    { set: { 2: 'id: Sample', 14: '  maxDeclaredBytes: 0' }, drop: [7], after: { 20: ['  maxBites: 5'] } },
    ['2:5 schema.format', '5:3 schema.missing-key', '13:21 schema.range', '20:3 schema.unknown-key'],
  ],
];

describe('policy diagnostics point at the offending yaml node', () => {
  test.each(cases)('%s', (_name, e, want) => {
    const { policy, diagnostics } = checkPolicyText(edit(e), file);
    expect(diagnostics.map((d) => `${d.line}:${d.col} ${d.code}`)).toEqual(want);
    expect(policy).toBeUndefined();
    for (const d of diagnostics) {
      expect(d.file).toBe(file);
      expect(d.severity).toBe('error');
      expect(d.message).toMatch(/^[a-z`][^\n]*[^.\n]$/);
    }
  });
});

describe('whole files', () => {
  test.each([
    ['an empty file', '', '1:1 yaml.not-a-mapping'],
    ['a comment only', '# nothing\n', '1:1 yaml.not-a-mapping'],
    ['a list root', '- id: x\n', '1:1 yaml.not-a-mapping'],
    ['a scalar root', '\n\nhello\n', '3:1 yaml.not-a-mapping'],
    ['a file over the size limit', `id: x\n${'#'.repeat(maxPolicyChars)}`, '1:1 yaml.syntax'],
  ])('%s', (_name, text, want) => {
    const { diagnostics } = checkPolicyText(text, file);
    expect(diagnostics.map((d) => `${d.line}:${d.col} ${d.code}`)).toEqual([want]);
  });

  test('the base policy is valid', () => {
    const { policy, diagnostics } = checkPolicyText(edit({}), file);
    expect(diagnostics).toEqual([]);
    expect(policy?.rules.map((r) => r.id)).toEqual(['no-exe']);
  });
});

describe('parsePolicy', () => {
  test('throws one POLICY_INVALID carrying every diagnostic, the first in the message', () => {
    const text = edit({ set: { 2: 'id: Sample', 14: '  maxDeclaredBytes: 0' }, drop: [7] });
    let caught: unknown;
    try {
      parsePolicy(text, file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GateError);
    const error = caught as GateError;
    expect(error.code).toBe('POLICY_INVALID');
    expect(error.diagnostics).toHaveLength(3);
    expect(error.message).toBe(formatDiagnostic(error.diagnostics[0]!));
    expect(error.message).toBe(
      'policies/sample.yaml:2:5: error schema.format: `id`: expected a kebab-case policy id, got `Sample`',
    );
  });

  test.each([
    ['a missing key', { drop: [7] }, 'missing required key `ticket`', 'review.ticket'],
    ['an unknown key', { after: { 20: ['  maxBites: 5'] } }, 'unknown key `maxBites`', 'read.maxBites'],
    [
      'a bad limit',
      { set: { 14: '  maxDeclaredBytes: 1.5' } },
      'expected a whole number, got `1.5`',
      'links.maxDeclaredBytes',
    ],
    [
      'a non-finite limit',
      { set: { 14: '  maxDeclaredBytes: .inf' } },
      'expected a finite number, got `.inf`',
      'links.maxDeclaredBytes',
    ],
    [
      'a negative limit',
      { set: { 14: '  maxDeclaredBytes: -1' } },
      'expected at least 1, got `-1`',
      'links.maxDeclaredBytes',
    ],
    ['a duplicate key', { after: { 19: ['  maxBytes: 8192'] } }, 'duplicate key `maxBytes`', undefined],
    ['a bad var path', when('{"==": [{var: hots}, 1]}'), 'stage `read` has no fact `hots`', 'rules.0.when.==.0.var'],
  ] as [string, Edit, string, string | undefined][])('names the value and path for %s', (_name, e, message, path) => {
    const run = () => parsePolicy(edit(e), file);
    expect(run).toThrow(GateError);
    const d = checkPolicyText(edit(e), file).diagnostics[0];
    // the message names the field it is about
    expect(d?.message).toBe(path === undefined ? message : `\`${path}\`: ${message}`);
    expect(d?.path).toBe(path);
  });

  test('returns a frozen policy with its digest', () => {
    const policy = parsePolicy(edit({}), file);
    expect(policy.source).toBe(file);
    expect(policy.ref).toMatchObject({ id: 'sample', version: '1.0.0' });
    expect(policy.ref.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.isFrozen(policy.document.read)).toBe(true);
  });
});
