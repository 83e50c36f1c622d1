import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../helpers/run-cli.ts';
import { expectGolden } from '../review/expect-golden.ts';

const fixture = 'test/review/fixtures/rules-policy.yaml';
const fixtureCases = 'test/review/fixtures/rules-policy.cases.yaml';
const allCases = [
  '--cases',
  'policies/default.cases.yaml',
  '--cases',
  'policies/strict.cases.yaml',
  '--cases',
  'policies/web-public.cases.yaml',
];

/** How many cases the project's case files hold, so adding a case does not break the count below. */
function projectCaseCount(): number {
  return allCases
    .filter((arg) => arg !== '--cases')
    .reduce((sum, file) => sum + (parse(readFileSync(file, 'utf8')) as { cases: unknown[] }).cases.length, 0);
}

/** The fixture policy without one rule, written to a temporary file. */
function withoutRule(id: string): string {
  const text = readFileSync(fixture, 'utf8');
  const start = text.indexOf(`  - id: ${id}\n`);
  const end = text.indexOf('  - id: ', start + 1);
  expect(start).toBeGreaterThan(0);
  const dir = mkdtempSync(join(tmpdir(), 'linkgate-diff-'));
  const file = join(dir, 'rules-policy.yaml');
  writeFileSync(file, text.slice(0, start) + (end === -1 ? '' : text.slice(end)));
  return file;
}

interface DiffJson {
  loosens: boolean;
  summary: { replayed: number; changed: number; tightened: number; loosened: number; settingsLoosening: number };
  decisions: {
    name: string;
    direction: string;
    old: { effect: string };
    new: { effect: string };
    reasonsRemoved: string[];
  }[];
  settings: { path: string; kind: string; direction: string }[];
}

describe('linkgate diff', () => {
  it('shows default → strict as a tightening on the project cases, exit 0', async () => {
    const run = await runCli([
      'diff',
      'policies/default.yaml',
      'policies/strict.yaml',
      ...allCases,
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    const diff = JSON.parse(run.stdout) as DiffJson;
    expect(diff.loosens).toBe(false);
    expect(diff.summary.replayed).toBe(projectCaseCount());
    expect(diff.summary.loosened).toBe(0);
    expect(diff.summary.tightened).toBeGreaterThan(15);
    expect(diff.decisions.every((d) => d.direction !== 'loosening')).toBe(true);
    expect(diff.settings.filter((s) => s.direction === 'tightening').map((s) => s.path)).toEqual(
      expect.arrayContaining([
        'links.customSchemes',
        'links.origins',
        'links.servers',
        'credentials.forward',
        'read.maxBytes',
        'links.schemes',
      ]),
    );
  });

  it('flags strict → default as loosening and exits 1 unless --allow-loosening', async () => {
    const args = ['diff', 'policies/strict.yaml', 'policies/default.yaml', ...allCases];
    const blocked = await runCli(args);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toContain('verdict: LOOSENS the policy');
    expect(blocked.stdout).toMatch(
      /^ {2}LOOSENED +policies\/strict\.cases\.yaml:\d+: a custom-scheme link is denied: deny → allow$/m,
    );
    expect((await runCli([...args, '--allow-loosening'])).code).toBe(0);
  });

  it('removing one rule changes exactly the decisions it made, each flagged as loosening', async () => {
    const run = await runCli([
      'diff',
      fixture,
      withoutRule('no-paste-sites'),
      '--cases',
      fixtureCases,
      '--format',
      'json',
    ]);
    expect(run.code).toBe(1);
    const diff = JSON.parse(run.stdout) as DiffJson;
    expect(diff.decisions.map((d) => [d.name, d.direction, d.old.effect, d.new.effect, d.reasonsRemoved])).toEqual([
      [
        'a paste site is denied by a custom rule',
        'loosening',
        'deny',
        'allow',
        ['rule.no-paste-sites (rules.no-paste-sites)'],
      ],
      [
        'a subdomain of a paste site is denied too',
        'loosening',
        'deny',
        'allow',
        ['rule.no-paste-sites (rules.no-paste-sites)'],
      ],
    ]);
    expect(diff.settings).toEqual([
      expect.objectContaining({ path: 'rules.no-paste-sites', kind: 'removed', direction: 'loosening' }),
    ]);
    expect(diff.summary).toMatchObject({ replayed: 12, changed: 2, loosened: 2, tightened: 0, settingsLoosening: 1 });
  });

  it.each([
    { format: 'text', golden: 'diff.txt' },
    { format: 'json', golden: 'diff.json' },
    { format: 'markdown', golden: 'diff.md' },
  ])('writes $format matching golden/$golden', async ({ format, golden }) => {
    const run = await runCli([
      'diff',
      fixture,
      'policies/default.yaml',
      '--cases',
      fixtureCases,
      '--cases',
      'policies/strict.cases.yaml',
      '--format',
      format,
    ]);
    expect(run.code).toBe(1);
    expectGolden(golden, run.stdout);
  });

  it('reports no change for a policy against itself', async () => {
    const run = await runCli(['diff', 'policies/default.yaml', 'policies/default.yaml', ...allCases]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('0 changed');
    expect(run.stdout).toContain('verdict: no change');
  });

  it.each([
    {
      name: 'one policy',
      args: ['policies/default.yaml', '--cases', fixtureCases],
      message: 'expected two policy files',
    },
    { name: 'no cases', args: ['policies/default.yaml', 'policies/strict.yaml'], message: 'missing `--cases FILE`' },
    {
      name: 'three policies',
      args: ['policies/default.yaml', 'policies/strict.yaml', 'x.yaml', '--cases', fixtureCases],
      message: 'unexpected argument `x.yaml`',
    },
    {
      name: 'bad format',
      args: ['policies/default.yaml', 'policies/strict.yaml', '--cases', fixtureCases, '--format', 'html'],
      message: 'unknown format `html`',
    },
    {
      name: 'unreadable policy',
      args: ['policies/default.yaml', 'nope.yaml', '--cases', fixtureCases],
      message: 'nope.yaml',
    },
  ])('exit 2: $name', async ({ args, message }) => {
    const run = await runCli(['diff', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
