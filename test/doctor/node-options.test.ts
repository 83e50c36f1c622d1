// NODE_OPTIONS as node reads it (issue 39): doctor splits the value the way node does (quotes dropped, runs joined) and
// matches the code-loading flags on what it gets. The oracle is the real node: each value is run as NODE_OPTIONS of
// `node -e 0` with a preload that writes a marker; every value that loads it, or that node refuses to start with, is
// a problem for doctor, and a harmless one is not.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { nodeOptionsArgs } from '../../src/doctor/node-options.ts';
import { preloadProblem } from '../../src/doctor/linkgate-invocation.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-node-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const marker = path.join(dir, 'marker');
const evil = path.join(dir, 'evil.cjs');
writeFileSync(evil, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x');`);
const evilMjs = path.join(dir, 'evil.mjs');
writeFileSync(evilMjs, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x');`);

// what the real node does with `value` as NODE_OPTIONS: runs the preload, refuses to start, or runs plainly
function underNode(value: string): 'loads' | 'refused' | 'runs' {
  rmSync(marker, { force: true });
  const run = spawnSync(process.execPath, ['-e', '0'], {
    env: { ...process.env, NODE_OPTIONS: value },
    encoding: 'utf8',
  });
  if (existsSync(marker)) return 'loads';
  return run.status === 0 ? 'runs' : 'refused';
}

describe('NODE_OPTIONS split as node splits it', () => {
  const loading = [
    `"--require" ${evil}`,
    `--re""quire ${evil}`,
    `"--req\\uire" ${evil}`,
    `--require="${evil}"`,
    `"-r" ${evil}`,
    `--no-warnings   "--import=${evilMjs}"`,
    `"--experimental_loader=${evilMjs}"`,
    `--import ${evilMjs}`,
  ];
  test.each(loading)('node runs the preload of %s, and doctor names it', (value) => {
    expect(underNode(value)).toBe('loads');
    expect(preloadProblem('`NODE_OPTIONS`', value)).toMatch(/load other code first/);
  });

  const refused = [`"--require ${evil}`, `--max-old-space-size=64 "a\\`, '--title', `--title -r ${evil}`, '--require'];
  test.each(refused)('node does not start with %s, and doctor says so', (value) => {
    expect(underNode(value)).toBe('refused');
    expect(preloadProblem('`NODE_OPTIONS`', value)).toMatch(/cannot be read as node reads it/);
  });

  test('an env file in NODE_OPTIONS, however quoted, is named', () => {
    for (const value of [`"--env-file=${dir}/e"`, `--env""-file ${dir}/e`, '--env_file_if_exists=x'])
      expect(preloadProblem('`NODE_OPTIONS`', value)).toMatch(/read an env file/);
  });

  test('harmless options are not a problem, and node runs them plainly', () => {
    for (const value of ['--no-warnings', '"--max-old-space-size=64"  --no-deprecation', '', `"--title=-r ${evil}"`]) {
      expect(underNode(value)).toBe('runs');
      expect(preloadProblem('`NODE_OPTIONS`', value)).toBeUndefined();
    }
  });

  test('quotes are dropped, runs join, a backslash in quotes takes the next character', () => {
    expect(nodeOptionsArgs('a"b c"d  "e\\"f" ""')).toEqual({ args: ['ab cd', 'e"f'] });
    expect(nodeOptionsArgs('"x')).toHaveProperty('unreadable');
  });
});
