import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintRuleCatalogue } from '../../src/review/lint-codes.ts';
import { runCli } from '../helpers/run-cli.ts';
import { expectGolden } from '../review/expect-golden.ts';

const broad = 'test/review/fixtures/broad-policy.yaml';
const today = ['--today', '2026-12-02'];

describe('linkgate lint', () => {
  it.each([
    { format: 'text', golden: 'lint.txt' },
    { format: 'json', golden: 'lint.json' },
    { format: 'sarif', golden: 'lint.sarif.json' },
  ])('writes $format output matching golden/$golden', async ({ format, golden }) => {
    const run = await runCli(['lint', '--format', format, ...today, broad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expectGolden(golden, run.stdout);
  });

  it('lints every shipped policy clean, exit 0, no output', async () => {
    const run = await runCli([
      'lint',
      ...today,
      'policies/default.yaml',
      'policies/web-public.yaml',
      'policies/strict.yaml',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('writes SARIF that code scanning accepts: schema, version, rules with stable ids and severities, 1-based regions', async () => {
    const run = await runCli(['lint', '--format', 'sarif', ...today, broad]);
    const log = JSON.parse(run.stdout) as {
      $schema: string;
      version: string;
      runs: {
        tool: {
          driver: {
            name: string;
            version: string;
            informationUri: string;
            rules: {
              id: string;
              shortDescription: { text: string };
              properties: { 'security-severity': string; tags: string[] };
            }[];
          };
        };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          message: { text: string };
          locations: {
            physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } };
          }[];
        }[];
      }[];
    };
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const [sarifRun] = log.runs;
    const driver = sarifRun!.tool.driver;
    expect(driver).toMatchObject({
      name: 'linkgate',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      informationUri: expect.stringMatching(/^https:\/\//),
    });
    expect(driver.rules.map((r) => r.id)).toEqual(lintRuleCatalogue().map((r) => r.id));
    expect(new Set(driver.rules.map((r) => r.id)).size).toBe(driver.rules.length);
    for (const rule of driver.rules) {
      expect(rule.shortDescription.text.length).toBeGreaterThan(0);
      const severity = Number(rule.properties['security-severity']);
      expect(typeof rule.properties['security-severity']).toBe('string');
      expect(severity).toBeGreaterThanOrEqual(0);
      expect(severity).toBeLessThanOrEqual(10);
      expect(rule.properties.tags).toContain('security');
    }
    expect(sarifRun!.results.length).toBeGreaterThan(10);
    for (const result of sarifRun!.results) {
      expect(driver.rules[result.ruleIndex]?.id).toBe(result.ruleId);
      expect(['error', 'warning']).toContain(result.level);
      expect(result.message.text).toMatch(/^[a-z`]/);
      const location = result.locations[0]!.physicalLocation;
      expect(location.artifactLocation.uri).toBe(broad);
      expect(location.region.startLine).toBeGreaterThanOrEqual(1);
      expect(location.region.startColumn).toBeGreaterThanOrEqual(1);
    }
  });

  it.each([
    { name: 'warnings only, fail level error', args: ['--today', '2027-05-20'], code: 0 },
    { name: 'warnings only, fail level warning', args: ['--today', '2027-05-20', '--fail-level', 'warning'], code: 1 },
    { name: 'expired review', args: ['--today', '2027-06-03'], code: 1 },
    { name: 'clean, fail level warning', args: ['--today', '2026-12-02', '--fail-level', 'warning'], code: 0 },
  ])('exit code: $name → $code', async ({ args, code }) => {
    const run = await runCli(['lint', ...args, 'policies/default.yaml']);
    expect(run.code).toBe(code);
  });

  it('reports a yaml error at file:line:col and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkgate-lint-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'id: bad\nversion: [1\n');
    const run = await runCli(['lint', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^${file.replaceAll('\\', '\\\\')}:\\d+:\\d+: error yaml\\.syntax: `));
  });

  it.each([
    { name: 'no file', args: [], message: 'missing policy `FILE`' },
    { name: 'unknown format', args: ['--format', 'xml', 'policies/default.yaml'], message: 'unknown format `xml`' },
    {
      name: 'unknown fail level',
      args: ['--fail-level', 'info', 'policies/default.yaml'],
      message: 'unknown fail level `info`',
    },
    { name: 'bad today', args: ['--today', 'tomorrow', 'policies/default.yaml'], message: '`--today` must be a date' },
    { name: 'unknown option', args: ['--colour', 'policies/default.yaml'], message: '--colour' },
  ])('usage error: $name → exit 2', async ({ args, message }) => {
    const run = await runCli(['lint', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });

  it('exits 2 for an unreadable file and still lints the others', async () => {
    const run = await runCli(['lint', ...today, 'policies/nope.yaml', broad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('linkgate: cannot read policy `policies/nope.yaml`: no such file\n');
    expect(run.stdout).toContain(`${broad}:`);
  });
});
