import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { helpText } from '../../src/cli/command-definition.ts';
import { commands } from '../../src/cli/commands.ts';
import { runCli } from '../helpers/run-cli.ts';

describe('command arguments', () => {
  it.each([
    { args: ['lint', '--bogus', 'policies/default.yaml'], message: 'linkgate: unknown option `--bogus`' },
    { args: ['eval', '--policy'], message: 'linkgate: option `--policy` needs a value' },
    {
      args: ['probe', '--json=1', '--policy', 'p', '--tool', 't', '--', 'x'],
      message: 'linkgate: option `--json` takes no value',
    },
    { args: ['eval', '--policy', 'policies/default.yaml', 'extra'], message: 'linkgate: unexpected argument `extra`' },
    {
      args: ['explain', '--policy', 'policies/default.yaml', 'extra'],
      message: 'linkgate: unexpected argument `extra`',
    },
    { args: ['eval'], message: 'linkgate: missing `--policy FILE`' },
    {
      args: ['eval', '--polcy', 'policies/default.yaml'],
      message: 'linkgate: unknown option `--polcy`; did you mean `--policy`?',
    },
    {
      args: ['lint', '--format', 'sarf', 'policies/default.yaml'],
      message: 'linkgate: unknown format `sarf`; expected text, json or sarif; did you mean `sarif`?',
    },
    {
      args: ['lint', '--fail-level', 'eror', 'policies/default.yaml'],
      message: 'linkgate: unknown fail level `eror`; expected error or warning; did you mean `error`?',
    },
    {
      args: ['test', '--format', 'xml', 'policies/default.yaml'],
      message: 'linkgate: unknown format `xml`; expected text, junit or json',
    },
    {
      args: ['diff', '--format', 'markdwn', '--cases', 'c.yaml', 'policies/default.yaml', 'policies/strict.yaml'],
      message: 'linkgate: unknown format `markdwn`; expected text, json or markdown; did you mean `markdown`?',
    },
    {
      args: ['test', '--coverage-treshold', '90', 'policies/default.yaml'],
      message: 'linkgate: unknown option `--coverage-treshold`; did you mean `--coverage-threshold`?',
    },
  ])('$args exits 2 naming the option', async ({ args, message }) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(message);
    expect(run.stderr).toContain(`usage: linkgate ${args[0]}`);
    expect(run.stderr).toContain(`run \`linkgate ${args[0]} --help\` for the options`);
  });

  it('suggests the command for a misspelt one', async () => {
    const run = await runCli(['expalin']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('linkgate: unknown command `expalin`; did you mean `explain`?');
  });

  it.each(commands.map((c) => c.name))(
    '`%s --help` prints usage, every option, exit codes and an example',
    async (name) => {
      const run = await runCli([name, '--help']);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(new RegExp(`^usage: linkgate ${name} `));
      const definition = commands.find((c) => c.name === name);
      for (const [option, spec] of Object.entries(definition?.options ?? {})) {
        expect(run.stdout).toContain(`--${option}`);
        if (spec.default !== undefined) expect(run.stdout).toContain(`default: ${spec.default}`);
      }
      expect(run.stdout).toContain('exit codes:');
      expect(run.stdout).toMatch(new RegExp(`\\n {2}(.*(\\| |&& ))?linkgate ${name} `));
      expect(run.stdout).toBe(definition === undefined ? '' : helpText(definition));
    },
  );

  it('lists every command in `linkgate --help`', async () => {
    const run = await runCli(['--help']);
    for (const c of commands) expect(run.stdout).toContain(`  ${c.name}`);
  });
});

describe('a missing file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkgate-missing-'));
  writeFileSync(join(dir, 'p.yaml'), 'x');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const line = JSON.stringify({ stage: 'link', link: { type: 'resource_link', uri: 'https://a.example/', name: 'x' } });
  it.each([
    { args: ['lint', 'nope.yaml'], kind: 'policy', file: 'nope.yaml' },
    { args: ['test', 'nope.yaml'], kind: 'policy', file: 'nope.yaml' },
    {
      args: ['test', '--cases', 'nope.cases.yaml', 'policies/default.yaml'],
      kind: 'case file',
      file: 'nope.cases.yaml',
    },
    { args: ['eval', '--policy', 'nope.yaml'], kind: 'policy', file: 'nope.yaml' },
    {
      args: ['eval', '--policy', 'policies/default.yaml', '--resolve-from', 'nope.json'],
      kind: 'resolver map',
      file: 'nope.json',
    },
    { args: ['explain', '--policy', 'nope.yaml', '--line', line], kind: 'policy', file: 'nope.yaml' },
    {
      args: ['diff', 'policies/default.yaml', 'nope.yaml', '--cases', 'policies/default.cases.yaml'],
      kind: 'policy',
      file: 'nope.yaml',
    },
  ])('$args is reported in the one wording', async ({ args, kind, file }) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`linkgate: cannot read ${kind} \`${file}\`: no such file\n`);
  });
});
