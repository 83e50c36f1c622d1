import { describe, expect, it } from 'vitest';
import { casesPathFor, checkCasesText, isCasesPath, maxExpandedUnits } from '../../src/review/policy-cases.ts';

const one = (want: string, input = '{stage: link, link: {type: resource_link, uri: "guide://a", name: a}}') =>
  `cases:\n  - note: n\n    input: ${input}\n    want: ${want}\n`;

describe('case files', () => {
  it('loads cases with their 1-based positions and a resolve map', () => {
    const text = `resolve:\n  Docs.Example.com: [93.184.215.14]\ncases:\n  - note: first\n    input: {stage: link}\n    want: {effect: deny, reasons: [input.invalid]}\n  - note: second\n    input: {stage: credential}\n    want: {effect: allow, items: [{index: 0, effect: allow}]}\n`;
    const { cases, diagnostics } = checkCasesText(text, 'c.yaml');
    expect(diagnostics).toEqual([]);
    expect(cases?.cases.map((c) => [c.note, c.line, c.col])).toEqual([
      ['first', 4, 5],
      ['second', 7, 5],
    ]);
    expect(cases?.resolve?.get('docs.example.com')).toEqual(['93.184.215.14']);
  });

  it.each([
    { name: 'unknown effect', text: one('{effect: maybe}'), want: 'c.yaml:4:20: error schema.enum' },
    {
      name: 'unknown reason code',
      text: one('{effect: deny, reasons: [uri.nope]}'),
      want: 'c.yaml:4:36: error schema.invalid',
    },
    {
      name: 'rule code is fine but malformed',
      text: one('{effect: deny, reasons: [rule.Bad]}'),
      want: 'c.yaml:4:36: error schema.invalid',
    },
    {
      name: 'missing want',
      text: 'cases:\n  - note: n\n    input: {}\n',
      want: 'c.yaml:2:5: error schema.missing-key',
    },
    { name: 'unknown key', text: one('{effect: deny, why: x}'), want: 'c.yaml:4:26: error schema.unknown-key' },
    { name: 'no cases', text: 'cases: []\n', want: 'c.yaml:1:8: error schema.range' },
    { name: 'not a mapping', text: '- a\n', want: 'c.yaml:1:1: error yaml.not-a-mapping' },
    { name: 'yaml syntax', text: 'cases: [\n', want: 'c.yaml:2:1: error yaml.syntax' },
    { name: 'duplicate key', text: 'cases: []\ncases: []\n', want: 'c.yaml:2:1: error yaml.duplicate-key' },
    {
      name: 'negative times',
      text: one('{effect: deny}', '{stage: read, x: {$repeat: a, times: -1}}'),
      want: 'c.yaml:3:49: error schema.invalid',
    },
  ])('locates $name', ({ text, want }) => {
    const { cases, diagnostics } = checkCasesText(text, 'c.yaml');
    expect(cases).toBeUndefined();
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.severity} ${d.code}`)[0]).toBe(want);
  });

  it('expands $repeat and $items generators', () => {
    const text = one(
      '{effect: deny}',
      '{stage: read, body: {$repeat: ab, times: 3}, list: {$items: {k: 1}, times: 2}, keep: {$repeat: x}}',
    );
    const input = checkCasesText(text, 'c.yaml').cases?.cases[0]?.input;
    expect(input).toEqual({ stage: 'read', body: 'ababab', list: [{ k: 1 }, { k: 1 }], keep: { $repeat: 'x' } });
  });

  it(`refuses generators beyond ${maxExpandedUnits} units in a file`, () => {
    const text = one('{effect: deny}', `{body: {$repeat: ab, times: ${maxExpandedUnits}}}`);
    expect(checkCasesText(text, 'c.yaml').diagnostics[0]?.message).toContain('more than');
  });

  it.each([
    ['policies/default.yaml', 'policies/default.cases.yaml'],
    ['p.yml', 'p.cases.yml'],
    ['p', 'p.cases.yaml'],
  ])('%s has its cases in %s', (policy, cases) => {
    expect(casesPathFor(policy)).toBe(cases);
    expect(isCasesPath(cases)).toBe(true);
    expect(isCasesPath(policy)).toBe(false);
  });
});
