import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { explainLine, type Explanation } from '../../src/review/explain.ts';
import { checkCasesText } from '../../src/review/policy-cases.ts';
import { runCli } from '../helpers/run-cli.ts';
import { expectGolden } from '../review/expect-golden.ts';

const fixture = 'test/review/fixtures/rules-policy.yaml';
const secretLink = JSON.stringify({
  stage: 'link',
  server: 'docs',
  readFrom: 'docs',
  link: {
    type: 'resource_link',
    uri: 'https://alice:hunter2@pastebin.com/raw/x?token=s3cr3t&v=1',
    name: 'x',
    mimeType: 'text/plain',
  },
});

describe('linkgate explain', () => {
  it.each([
    { name: 'text', args: [], golden: 'explain.txt' },
    { name: 'json', args: ['--json'], golden: 'explain.json' },
  ])('explains a link line in $name (golden/$golden) without showing secrets', async ({ args, golden }) => {
    const run = await runCli(['explain', '--policy', fixture, ...args], `${secretLink}\n`);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('hunter2');
    expect(run.stdout).not.toContain('alice');
    expect(run.stdout).not.toContain('s3cr3t');
    expectGolden(golden, run.stdout);
  });

  it('lists every check and rule of the stage in order, failing exactly those behind the reasons', async () => {
    const run = await runCli(['explain', '--policy', fixture, '--json', '--line', secretLink]);
    const e = JSON.parse(run.stdout) as Explanation;
    expect(e.steps.map((s) => `${s.status} ${s.rule}`)).toEqual([
      'pass input',
      'pass links.uri',
      'fail links.userinfo',
      'pass links.schemes',
      'n/a links.customSchemes',
      'pass links.denyNonPublicAddresses',
      'skip links.origins',
      'skip links.servers',
      'pass links.requireSameServer',
      'skip hook.requireDiscovered',
      'pass links.maxDeclaredBytes',
      'pass links.denyDeclaredTypes',
      'skip links.resolveNames',
      'fail rules.no-paste-sites',
      'pass rules.no-big-images',
      'pass rules.docs-server-https-only',
    ]);
    expect(e.steps.find((s) => s.rule === 'rules.no-paste-sites')?.facts).toEqual({ host: 'pastebin.com' });
    expect(e.facts['uri']).toBe('https://pastebin.com/raw/x?token=&v=');
  });

  it.each([
    {
      name: 'credential',
      line: {
        stage: 'credential',
        kind: 'bearer-in-query',
        from: 'https://a.example.com/?access_token=zzz',
        to: 'https://b.example.com/',
      },
      fail: ['credentials.forward', 'rules.no-bearer-in-query'],
    },
    {
      name: 'read',
      line: {
        stage: 'read',
        server: 'docs',
        readFrom: 'docs',
        elapsedMs: 12000,
        link: { type: 'resource_link', uri: 'guide://a', name: 'a' },
        result: { contents: [{ uri: 'guide://a', mimeType: 'text/plain', text: 'x' }] },
      },
      fail: ['read.readTimeoutMs', 'rules.slow-reads'],
    },
    { name: 'invalid', line: { stage: 'link' }, fail: ['input'] },
  ])('explains a $name line', async ({ line, fail }) => {
    const run = await runCli(['explain', '--policy', fixture, '--json', '--line', JSON.stringify(line)]);
    const e = JSON.parse(run.stdout) as Explanation;
    expect(e.steps.filter((s) => s.status === 'fail').map((s) => s.rule)).toEqual(fail);
    expect(run.stdout).not.toContain('zzz');
  });

  it('agrees with the engine on every custom rule for every fixture case (facts built like the engine)', async () => {
    const policy = await loadPolicy(fixture);
    const gate = createGate(policy, { resolve: 'none' });
    const { cases } = checkCasesText(readFileSync('test/review/fixtures/rules-policy.cases.yaml', 'utf8'), 'cases');
    for (const c of cases?.cases ?? []) {
      const e = await explainLine(gate, c.input, { resolving: false });
      const fired = e.decision.reasons.filter((r) => r.rule.startsWith('rules.')).map((r) => r.rule);
      expect({
        note: c.note,
        fired: e.steps.filter((s) => s.kind === 'rule' && s.status === 'fail').map((s) => s.rule),
      }).toEqual({ note: c.note, fired });
      expect(e.steps.every((s) => s.why === undefined || !s.why.includes('differently'))).toBe(true);
    }
  });

  it.each([
    { name: 'no line', args: [], stdin: '', message: 'no line to explain' },
    { name: 'not json', args: ['--line', '{'], stdin: '', message: 'not valid json' },
    { name: 'bad policy', args: ['--policy', 'nope.yaml', '--line', '{}'], stdin: '', message: 'nope.yaml' },
  ])('exit 2: $name', async ({ args, stdin, message }) => {
    const run = await runCli(['explain', ...args], stdin);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('uses the shipped default policy without --policy', async () => {
    const run = await runCli([
      'explain',
      '--line',
      JSON.stringify({ stage: 'link', link: { type: 'resource_link', uri: 'file:///etc/passwd', name: 'x' } }),
    ]);
    expect(run.stdout).toContain('under policy default ');
    expect(run.stdout).toMatch(/FAIL {2}links\.schemes/);
    expect(run.stderr).toBe('linkgate: no `--policy`; using the shipped policies/default.yaml\n');
  });

  it('refuses a second line on stdin instead of ignoring it', async () => {
    const line = JSON.stringify({
      stage: 'link',
      link: { type: 'resource_link', uri: 'https://a.example.com/', name: 'x' },
    });
    const run = await runCli(['explain', '--policy', 'policies/default.yaml'], `${line}\n\n${line}\n`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(
      'linkgate: stdin has a second line (line 3); explain takes one line, eval takes many',
    );
  });

  it('says the origin list does not apply to a custom-scheme uri', async () => {
    const line = {
      stage: 'link',
      server: 'docs',
      readFrom: 'docs',
      link: { type: 'resource_link', uri: 'guide://manuals/packing', name: 'packing' },
    };
    const run = await runCli(['explain', '--policy', 'policies/strict.yaml', '--json', '--line', JSON.stringify(line)]);
    const e = JSON.parse(run.stdout) as Explanation;
    const origins = e.steps.find((s) => s.rule === 'links.origins');
    expect(origins).toMatchObject({ status: 'n/a' });
    expect(origins?.why).toContain('`guide:` is a custom scheme');
    const text = await runCli(['explain', '--policy', 'policies/strict.yaml', '--line', JSON.stringify(line)]);
    expect(text.stdout).toMatch(/n\/a +links\.origins/);
    expect(text.stdout).not.toMatch(/pass +links\.origins/);
  });
});
