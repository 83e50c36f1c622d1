import { describe, expect, it } from 'vitest';
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
  ])('$args exits 2 naming the option', async ({ args, message }) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(message);
    expect(run.stderr).toContain(`usage: linkgate ${args[0]}`);
  });

  it.each(['eval', 'probe', 'lint', 'test', 'diff', 'explain'])(
    '`%s --help` prints its usage and exits 0',
    async (command) => {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^usage: linkgate ${command} `));
      expect(run.stderr).toBe('');
    },
  );
});
