import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { lintPolicyText } from '../../src/review/lint-policy.ts';
import { farAboveFactor, referenceLimits, reviewWarningDays } from '../../src/review/reference-limits.ts';

const repoRoot = join(import.meta.dirname, '../..');
const read = (rel: string) => readFileSync(join(repoRoot, rel), 'utf8');
const defaultText = read('policies/default.yaml');
const today = '2026-12-02';
const lint = (text: string, on = today) => lintPolicyText(text, 'p.yaml', { today: on });
const codes = (text: string, on = today) => lint(text, on).map((d) => `${d.severity} ${d.code}`);

/** The default policy with `rules:` appended. */
const withRules = (rules: string) => `${defaultText}rules:\n${rules}`;
const rule = (stage: string, when: string, id = 'r', effect = 'deny') =>
  `  - id: ${id}\n    stage: ${stage}\n    effect: ${effect}\n    message: m\n    when: ${when}\n`;

describe('lint: shipped policies', () => {
  it.each([
    'policies/default.yaml',
    'policies/web-public.yaml',
    'policies/strict.yaml',
    'test/review/fixtures/rules-policy.yaml',
  ])('%s lints clean', (file) => {
    expect(lintPolicyText(read(file), file, { today })).toEqual([]);
  });

  it('keeps the reference limits equal to the caps of policies/default.yaml', () => {
    const doc = parse(defaultText) as Record<string, Record<string, unknown>>;
    for (const [dotted, ref] of Object.entries(referenceLimits)) {
      const [section, key] = dotted.split('.') as [string, string];
      const value = doc[section]?.[key];
      if (value !== undefined) expect({ dotted, value }).toEqual({ dotted, value: ref.value });
    }
    expect(referenceLimits['read.maxBytes']?.value).toBe((doc['read'] as { maxBytes: number }).maxBytes);
  });
});

describe('lint: settings', () => {
  it.each([
    {
      name: 'file scheme',
      edit: ['schemes: [https, http]', 'schemes: [https, http, file]'],
      want: 'error lint.dangerous-scheme',
      at: '14:26',
    },
    {
      name: 'data scheme',
      edit: ['schemes: [https, http]', 'schemes: [data, https]'],
      want: 'error policy.never-allowed-scheme',
      at: '14:13',
    },
    {
      name: 'javascript scheme',
      edit: ['schemes: [https, http]', 'schemes: [https, javascript]'],
      want: 'error policy.never-allowed-scheme',
      at: '14:20',
    },
    {
      name: 'origin *',
      edit: ['  customSchemes: allow', '  customSchemes: allow\n  origins: ["*"]'],
      want: 'error lint.origin-too-broad',
      at: '16:13',
    },
    {
      name: 'origin https://*',
      edit: ['  customSchemes: allow', '  customSchemes: allow\n  origins: ["https://*"]'],
      want: 'error lint.origin-too-broad',
      at: '16:13',
    },
    {
      name: 'origin *.com',
      edit: ['  customSchemes: allow', '  customSchemes: allow\n  origins: ["https://*.com"]'],
      want: 'error lint.origin-too-broad',
      at: '16:13',
    },
    {
      name: 'origin *.com with port',
      edit: ['  customSchemes: allow', '  customSchemes: allow\n  origins: ["https://*.com:8443"]'],
      want: 'error lint.origin-too-broad',
      at: '16:13',
    },
    {
      name: 'origin that matches nothing',
      edit: ['  customSchemes: allow', '  customSchemes: allow\n  origins: ["docs.example.com"]'],
      want: 'error lint.origin-invalid',
      at: '16:13',
    },
    {
      name: 'non-public allowed',
      edit: ['denyNonPublicAddresses: true', 'denyNonPublicAddresses: false'],
      want: 'warning lint.non-public-allowed',
      at: '17:27',
    },
    {
      name: 'same server off',
      edit: ['requireSameServer: true', 'requireSameServer: false'],
      want: 'warning lint.same-server-off',
      at: '16:22',
    },
    {
      name: 'non-public exemption',
      edit: ['  customSchemes: allow', '  customSchemes: allow\n  allowNonPublicOrigins: [http://127.0.0.1:8080]'],
      want: 'warning lint.non-public-exemption',
      at: '16:27',
    },
    {
      name: 'html allowed',
      edit: ['    - text/csv', '    - text/html'],
      want: 'warning lint.content-type-risky',
      at: '31:7',
    },
    {
      name: 'zip allowed',
      edit: ['    - text/csv', '    - application/zip'],
      want: 'warning lint.content-type-risky',
      at: '31:7',
    },
    {
      name: 'executable allowed',
      edit: ['    - text/csv', '    - application/x-msdownload'],
      want: 'warning lint.content-type-risky',
      at: '31:7',
    },
    {
      name: 'image pixels 11×',
      edit: ['maxImagePixels: 50000000', 'maxImagePixels: 550000001'],
      want: 'warning lint.cap-far-above-default',
      at: '42:19',
    },
    {
      name: 'items 11×',
      edit: ['maxItems: 64', 'maxItems: 704'],
      want: 'warning lint.cap-far-above-default',
      at: '25:13',
    },
    {
      name: 'timeout 11×',
      edit: ['readTimeoutMs: 10000', 'readTimeoutMs: 110000'],
      want: 'warning lint.cap-far-above-default',
      at: '23:18',
    },
    {
      name: 'timeout too short',
      edit: ['readTimeoutMs: 10000', 'readTimeoutMs: 99'],
      want: 'warning lint.limit-out-of-range',
      at: '23:18',
    },
    {
      name: 'item cap over read cap',
      edit: ['  maxItems: 64', '  maxItems: 64\n  maxItemBytes: 10485761'],
      want: 'warning lint.limit-inconsistent',
      at: '26:17',
    },
    {
      name: 'declared cap over read cap',
      edit: ['maxBytes: 10485760', 'maxBytes: 1048576'],
      want: 'warning lint.limit-inconsistent',
      at: '18:21',
    },
    {
      name: 'fetch over http',
      edit: ['content:', 'fetch:\n  enabled: true\n  schemes: [https, http]\n  maxRedirects: 3\ncontent:'],
      want: 'warning lint.fetch-cleartext',
      at: '29:20',
    },
  ])('$name → $want at $at', ({ edit, want, at }) => {
    const [from, to] = edit as [string, string];
    expect(defaultText).toContain(from);
    const found = lint(defaultText.replace(from, to));
    expect(found.map((d) => `${d.severity} ${d.code}`)).toEqual([want]);
    expect(`${found[0]?.line}:${found[0]?.col}`).toBe(at);
  });

  it.each([
    { caps: 10, want: [] },
    { caps: 11, want: ['warning lint.cap-far-above-default'] },
  ])(`a cap of $caps× the default warns only above ${farAboveFactor}×`, ({ caps, want }) => {
    const text = defaultText.replace('maxImagePixels: 50000000', `maxImagePixels: ${50_000_000 * caps}`);
    expect(codes(text)).toEqual(want);
  });

  it.each([
    { consumers: '[browser, markdown]', dropped: ['notebook', 'pdf-reader', 'launcher', 'shell'] },
    { consumers: '[browser, markdown, notebook, pdf-reader, launcher]', dropped: ['shell'] },
  ])('content.consumers $consumers warns once at the key, naming $dropped', ({ consumers, dropped }) => {
    const text = defaultText.replace(
      '  maxImagePixels: 50000000',
      `  maxImagePixels: 50000000\n  consumers: ${consumers}`,
    );
    const found = lint(text);
    expect(found.map((d) => `${d.severity} ${d.code}`)).toEqual(['warning lint.consumers-dropped']);
    expect(`${found[0]?.file}:${found[0]?.line}:${found[0]?.col}`).toBe('p.yaml:43:3');
    for (const id of dropped) expect(found[0]?.message).toContain(`\`${id}\``);
    const kept = ['browser', 'markdown', 'notebook', 'pdf-reader', 'launcher', 'shell'].filter(
      (id) => !dropped.includes(id),
    );
    for (const id of kept) expect(found[0]?.message).not.toContain(`\`${id}\``);
  });

  it.each([
    '[browser, markdown, notebook, pdf-reader, launcher, shell]',
    '[shell, launcher, pdf-reader, notebook, markdown, browser, mdx, vitepress]',
  ])('content.consumers %s keeps every default consumer: no warning', (consumers) => {
    const text = defaultText.replace(
      '  maxImagePixels: 50000000',
      `  maxImagePixels: 50000000\n  consumers: ${consumers}`,
    );
    expect(codes(text)).toEqual([]);
  });

  it('does not warn for ws and wss, which are network schemes', () => {
    expect(codes(defaultText.replace('schemes: [https, http]', 'schemes: [https, http, ws, wss]'))).toEqual([]);
  });
});

describe('lint: review dates', () => {
  it.each([
    { on: '2027-06-03', want: ['error lint.review-expired'] },
    { on: '2027-06-02', want: ['warning lint.review-expiring'] },
    { on: '2027-05-03', want: ['warning lint.review-expiring'] },
    { on: '2027-05-02', want: [] },
    { on: '2026-12-02', want: [] },
  ])(`review expiring 2027-06-02, judged on $on (warns ${reviewWarningDays} days before)`, ({ on, want }) => {
    expect(codes(defaultText, on)).toEqual(want);
  });

  it('points at review.expires and names the date', () => {
    const [d] = lint(defaultText, '2027-07-01');
    expect(d).toMatchObject({
      line: 12,
      col: 12,
      code: 'lint.review-expired',
      path: 'review.expires',
      message: expect.stringContaining('`2027-06-02`'),
    });
  });

  it('reports a missing review block as a located schema error', () => {
    const text = defaultText.replace(/review:\n(?: {2}.*\n)+/, '');
    expect(codes(text)).toEqual(['error schema.missing-key']);
  });
});

describe('lint: custom rules', () => {
  it.each([
    { name: 'constant true', rules: rule('link', 'true'), want: ['error lint.rule-always-fires'] },
    { name: 'constant false', rules: rule('link', 'false'), want: ['error lint.rule-never-fires'] },
    { name: 'constant arithmetic', rules: rule('read', '{"<": [2, 1]}'), want: ['error lint.rule-never-fires'] },
    {
      name: 'and with false',
      rules: rule('link', '{and: [{var: customScheme}, false]}'),
      want: ['error lint.rule-never-fires'],
    },
    {
      name: 'or with true',
      rules: rule('link', '{or: [{var: customScheme}, 1]}'),
      want: ['error lint.rule-always-fires'],
    },
    { name: 'negated constant', rules: rule('credential', '{"!": [[]]}'), want: ['error lint.rule-always-fires'] },
    {
      name: 'if with equal branches',
      rules: rule('link', '{if: [{var: customScheme}, true, 1]}'),
      want: ['error lint.rule-always-fires'],
    },
    {
      name: 'in an empty list',
      rules: rule('link', '{in: [{var: scheme}, []]}'),
      want: ['error lint.rule-never-fires'],
    },
    {
      name: 'number fact === string',
      rules: rule('link', '{"===": [{var: size}, "10"]}'),
      want: ['error lint.rule-never-fires', 'error lint.rule-type-mismatch'],
    },
    {
      name: 'string fact == number',
      rules: rule('link', '{"==": [{var: scheme}, 443]}'),
      want: ['error lint.rule-type-mismatch'],
    },
    {
      name: 'boolean fact == string',
      rules: rule('credential', '{"==": ["true", {var: sameOrigin}]}'),
      want: ['error lint.rule-type-mismatch'],
    },
    {
      name: 'non-nullable fact == null',
      rules: rule('link', '{"==": [{var: scheme}, null]}'),
      want: ['error lint.rule-type-mismatch'],
    },
    {
      name: 'list fact == string',
      rules: rule('read', '{"==": [{var: kinds}, "png"]}'),
      want: ['error lint.rule-type-mismatch'],
    },
    {
      name: 'in list of numbers',
      rules: rule('link', '{in: [{var: scheme}, [80, https]]}'),
      want: ['error lint.rule-type-mismatch'],
    },
    {
      name: 'number fact !== string',
      rules: rule('link', '{"!==": [{var: port}, "443"]}'),
      want: ['error lint.rule-always-fires', 'error lint.rule-type-mismatch'],
    },
    { name: 'nullable fact == null', rules: rule('link', '{"==": [{var: host}, null]}'), want: [] },
    { name: 'fact against fact', rules: rule('credential', '{"==": [{var: fromOrigin}, {var: toOrigin}]}'), want: [] },
    {
      name: 'item scope is not the stage',
      rules: rule('read', '{some: [{var: kinds}, {"==": [{var: ""}, 5]}]}'),
      want: [],
    },
    { name: 'ordinary comparison', rules: rule('link', '{">": [{var: size}, 1000]}'), want: [] },
    {
      name: 'identical condition later',
      rules: rule('link', '{"==": [{var: scheme}, http]}', 'a') + rule('link', '{"==": [{var: scheme}, http]}', 'b'),
      want: ['warning lint.rule-shadowed'],
    },
    {
      name: 'narrower condition later',
      rules:
        rule('link', '{in: [{var: scheme}, [http, ftp]]}', 'a') +
        rule('link', '{and: [{"==": [{var: scheme}, http]}, {">": [{var: size}, 5]}]}', 'b', 'partial'),
      want: ['warning lint.rule-shadowed'],
    },
    {
      name: 'earlier or covers every branch',
      rules:
        rule('link', '{or: [{var: customScheme}, {"==": [{var: scheme}, http]}]}', 'a') +
        rule('link', '{"==": [{var: scheme}, http]}', 'b'),
      want: ['warning lint.rule-shadowed'],
    },
    {
      name: 'weaker effect earlier is no shadow',
      rules:
        rule('link', '{"==": [{var: scheme}, http]}', 'a', 'partial') +
        rule('link', '{"==": [{var: scheme}, http]}', 'b'),
      want: [],
    },
    {
      name: 'other stage is no shadow',
      rules: rule('link', '{"==": [{var: server}, x]}', 'a') + rule('read', '{"==": [{var: server}, x]}', 'b'),
      want: [],
    },
    {
      name: 'broader condition later is no shadow',
      rules:
        rule('link', '{"==": [{var: scheme}, http]}', 'a') + rule('link', '{in: [{var: scheme}, [http, ftp]]}', 'b'),
      want: [],
    },
    {
      name: 'duplicate ids',
      rules: rule('link', '{var: customScheme}', 'a') + rule('read', '{">": [{var: itemCount}, 3]}', 'a'),
      want: ['error policy.duplicate-rule-id'],
    },
    { name: 'unknown fact', rules: rule('link', '{var: body}'), want: ['error logic.unknown-fact'] },
  ])('$name', ({ rules, want }) => {
    expect(codes(withRules(rules))).toEqual(want);
  });

  it('locates a type mismatch at the operator and a constant rule at its when', () => {
    const found = lint(withRules(rule('link', '{"===": [{var: size}, "10"]}')));
    const line = defaultText.split('\n').length + 5;
    expect(found.map((d) => `${d.line}:${d.col} ${d.code}`)).toEqual([
      `${line}:11 lint.rule-never-fires`,
      `${line}:12 lint.rule-type-mismatch`,
    ]);
    expect(found[1]?.message).toBe('`===` compares fact `size` (a number or null) with `"10"` (a string)');
  });
});
