import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decision/decision.ts';
import { jsonLines, runCli } from '../helpers/run-cli.ts';

const link = (uri: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri, name: 'x', ...extra } });

describe('linkgate eval', () => {
  it('answers every line in order, one decision per line, with the policy identity', async () => {
    const input = [
      link('guide://manuals/packing', { mimeType: 'text/plain', size: 120 }),
      link('http://169.254.169.254/latest/meta-data/'),
      'not json',
      JSON.stringify({
        stage: 'credential',
        kind: 'authorization',
        from: 'https://a.example.com/x',
        to: 'https://b.example.net/y',
      }),
      '',
      '   ',
    ].join('\n');
    const run = await runCli(['eval', '--policy', 'policies/default.yaml'], `${input}\n`);
    expect(run.code).toBe(0);
    const out = jsonLines(run.stdout) as Decision[];
    // blank lines are spacing: they get no answer
    expect(out.map((d) => d.effect)).toEqual(['allow', 'deny', 'deny', 'deny']);
    expect(out[1]?.reasons.map((r) => r.code)).toContain('uri.non-public-address');
    expect(out[2]?.reasons).toEqual([expect.objectContaining({ code: 'input.invalid', stage: 'input' })]);
    expect(out[3]?.reasons.map((r) => r.code)).toContain('credential.cross-origin');
    for (const d of out) {
      expect(Object.keys(d)).toEqual(['effect', 'reasons', 'policy']);
      expect(d.policy).toEqual({
        id: 'default',
        version: expect.any(String),
        digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      });
    }
  });

  it.each([
    { name: 'missing link', line: { stage: 'link', server: 'docs' }, field: 'link' },
    {
      name: 'uri not a string',
      line: { stage: 'link', link: { type: 'resource_link', uri: 5, name: 'x' } },
      field: 'link.uri',
    },
    { name: 'unknown stage', line: { stage: 'fetch' }, field: 'stage' },
    {
      name: 'unknown key',
      line: { stage: 'credential', kind: 'cookie', from: 'https://a/', to: 'https://a/', extra: 1 },
      field: '(line)',
    },
    {
      name: 'unknown credential kind',
      line: { stage: 'credential', kind: 'magic', from: 'https://a/', to: 'https://a/' },
      field: 'kind',
    },
  ])('names the field of a malformed line: $name', async ({ line, field }) => {
    const run = await runCli(['eval', '--policy', 'policies/default.yaml'], `${JSON.stringify(line)}\n`);
    const [d] = jsonLines(run.stdout) as Decision[];
    expect(d?.effect).toBe('deny');
    expect(d?.reasons[0]?.code).toBe('input.invalid');
    expect(d?.reasons[0]?.message).toContain(`\`${field}\``);
  });

  it('refuses a line over --max-line-bytes with input.invalid and goes on', async () => {
    const big = link(`guide://x/${'a'.repeat(5000)}`);
    const run = await runCli(
      ['eval', '--policy', 'policies/default.yaml', '--max-line-bytes', '1000'],
      `${big}\n${link('guide://ok')}\n`,
    );
    const out = jsonLines(run.stdout) as Decision[];
    expect(out).toHaveLength(2);
    expect(out[0]?.reasons[0]).toMatchObject({
      code: 'input.invalid',
      message: expect.stringContaining('over the limit'),
    });
    expect(out[1]?.effect).toBe('allow');
  });

  it('exits 2 without answering any line when the policy does not load, naming file:line:col', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkgate-eval-'));
    const file = join(dir, 'bad.yaml');
    const text = readDefault().replace('maxDeclaredBytes: 10485760', 'maxDeclaredBytes: -5');
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('maxDeclaredBytes')) + 1;
    const run = await runCli(['eval', '--policy', file], `${link('guide://x')}\n`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:${line}:`);
    expect(run.stderr).toContain('maxDeclaredBytes');
  });

  it.each([
    { args: ['eval'], message: '--policy' },
    { args: ['eval', '--policy', 'policies/default.yaml', '--bogus'], message: 'bogus' },
    { args: ['eval', '--policy', 'does/not/exist.yaml'], message: 'does/not/exist.yaml' },
    { args: ['eval', '--policy', 'policies/default.yaml', '--max-line-bytes', '0'], message: 'max-line-bytes' },
    { args: ['frobnicate'], message: 'unknown command' },
  ])('usage error $args exits 2', async ({ args, message }) => {
    const run = await runCli(args, `${link('guide://x')}\n`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });

  it('resolves names only from --resolve-from, failing closed for names it does not list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkgate-eval-'));
    const map = join(dir, 'dns.json');
    writeFileSync(
      map,
      JSON.stringify({ answers: { 'public.example.com': ['93.184.215.14'], 'rebind.example.com': ['10.0.0.5'] } }),
    );
    const input = ['https://public.example.com/a', 'https://rebind.example.com/a', 'https://unlisted.example.com/a']
      .map((u) => link(u))
      .join('\n');
    const run = await runCli(['eval', '--policy', 'policies/web-public.yaml', '--resolve-from', map], `${input}\n`);
    expect(run.code).toBe(0);
    const out = jsonLines(run.stdout) as Decision[];
    expect(out.map((d) => d.effect)).toEqual(['allow', 'deny', 'deny']);
  });

  it('says so on stderr and exits 0 when stdin has no lines', async () => {
    for (const stdin of ['', '\n\n  \n']) {
      const run = await runCli(['eval', '--policy', 'policies/default.yaml'], stdin);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe('linkgate: no lines on stdin; nothing to decide\n');
    }
  });
});

function readDefault(): string {
  return readFileSync('policies/default.yaml', 'utf8');
}
