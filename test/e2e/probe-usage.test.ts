import { describe, expect, test } from 'vitest';
import { runProbe, tsServer } from './run-probe.ts';

const demo = tsServer('src/demo/demo-server.ts');

describe('linkgate probe usage and reachability', () => {
  test.each([
    { name: 'no arguments', args: [], message: /missing `--tool NAME`/ },
    { name: 'no policy or bundle', args: ['--tool', 't', '--', 'x'], message: /missing `--policy FILE`/ },
    { name: 'no tool', args: ['--policy', 'policies/default.yaml', '--', 'x'], message: /missing `--tool NAME`/ },
    { name: 'no command', args: ['--policy', 'policies/default.yaml', '--tool', 't'], message: /missing `-- COMMAND/ },
    {
      name: 'args not json',
      args: ['--policy', 'policies/default.yaml', '--tool', 't', '--args', '{', '--', 'x'],
      message: /`--args` is not json \(.*\); pass a json object such as/,
    },
    {
      name: 'args not an object',
      args: ['--policy', 'policies/default.yaml', '--tool', 't', '--args', '[1]', '--', 'x'],
      message: /`--args` must be a json object, got an array/,
    },
    {
      name: 'args in javascript notation',
      args: ['--policy', 'policies/default.yaml', '--tool', 't', '--args', '{message:1}', '--', 'x'],
      message: /`--args` is not json \(.*\); pass a json object such as/,
    },
    {
      name: 'unknown option',
      args: ['--policy', 'policies/default.yaml', '--tool', 't', '--bogus', '--', 'x'],
      message: /bogus/,
    },
    { name: 'policy missing', args: ['--policy', 'no-such.yaml', '--tool', 't', '--', 'x'], message: /no-such\.yaml/ },
    {
      name: 'command not found',
      args: ['--policy', 'policies/default.yaml', '--tool', 't', '--', '/nonexistent/linkgate-server'],
      message: /cannot start or reach/,
    },
    {
      name: 'command exits at once',
      args: ['--policy', 'policies/default.yaml', '--tool', 't', '--', process.execPath, '-e', 'process.exit(3)'],
      message: /cannot start or reach/,
    },
    {
      name: 'unknown tool',
      args: ['--policy', 'policies/default.yaml', '--tool', 'no-such-tool', '--', ...demo],
      message: /tool `no-such-tool` returned an error/,
    },
  ])('$name → exit 2', async ({ args, message }) => {
    const run = await runProbe(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  test('--help prints the usage and exits 0', async () => {
    const run = await runProbe(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: linkgate probe \(--policy FILE \| --bundle DIR\) --tool NAME/);
  });
});
