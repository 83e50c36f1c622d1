import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { expectGolden } from '../review/expect-golden.ts';

const fixture = 'test/review/fixtures/rules-policy.yaml';
const failing = ['--cases', 'test/review/fixtures/failing.cases.yaml', '--coverage-threshold', '50', fixture];

describe('linkgate test', () => {
  it.each(['policies/default.yaml', 'policies/web-public.yaml', 'policies/strict.yaml'])(
    'passes %s with 100%% rule coverage',
    async (policy) => {
      const run = await runCli(['test', '--coverage-threshold', '100', policy]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/, 0 failed; rule coverage (\d+)\/\1 \(100%\)\n/);
    },
  );

  it('covers every custom rule of the fixture policy with its own case file', async () => {
    const run = await runCli(['test', '--format', 'json', fixture]);
    const report = JSON.parse(run.stdout) as { policies: { coverage: { covered: string[] } }[] };
    expect(report.policies[0]?.coverage.covered.filter((r) => r.startsWith('rules.'))).toEqual([
      'rules.docs-server-https-only',
      'rules.no-bearer-in-query',
      'rules.no-big-images',
      'rules.no-paste-sites',
      'rules.slow-reads',
    ]);
    expect(run.code).toBe(0);
  });

  it.each([
    { format: 'text', golden: 'test.txt' },
    { format: 'junit', golden: 'test.junit.xml' },
    { format: 'json', golden: 'test.json' },
  ])('names failing cases with want and got in $format (golden/$golden)', async ({ format, golden }) => {
    const run = await runCli(['test', '--format', format, ...failing]);
    expect(run.code).toBe(1);
    expectGolden(golden, run.stdout);
  });

  it('gives repeated notes unique junit names', async () => {
    const run = await runCli(['test', '--format', 'junit', ...failing]);
    const names = [...run.stdout.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((m) => m[1]);
    expect(names).toContain('a paste site is denied (2)');
    expect(new Set(names).size).toBe(names.length);
  });

  it.each([
    { threshold: '31', code: 0 },
    { threshold: '32', code: 1 },
  ])(
    'fails below --coverage-threshold $threshold → exit $code (fixture coverage 31.2%)',
    async ({ threshold, code }) => {
      const run = await runCli(['test', '--coverage-threshold', threshold, fixture]);
      expect(run.code).toBe(code);
    },
  );

  it.each([
    { name: 'no policy', args: [], message: 'missing `POLICY`' },
    {
      name: 'bad threshold',
      args: ['--coverage-threshold', '120', fixture],
      message: '`--coverage-threshold` must be a percentage',
    },
    { name: 'bad format', args: ['--format', 'tap', fixture], message: 'unknown format `tap`' },
    {
      name: 'missing case file',
      args: ['--cases', 'nope.cases.yaml', fixture],
      message: 'cannot read case file `nope.cases.yaml`',
    },
    {
      name: 'policy without cases beside it',
      args: ['test/fixtures/policies/fetch-loopback.yaml'],
      message: 'fetch-loopback.cases.yaml',
    },
    {
      name: 'case file that is a policy',
      args: ['--cases', 'policies/default.yaml', fixture],
      message: 'policies/default.yaml:2:1: error schema.unknown-key: unknown key `id`',
    },
  ])('exit 2: $name', async ({ args, message }) => {
    const run = await runCli(['test', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
