// Gemini CLI reads its env file with `dotenv.parse` (dotenv 17, bundled in Gemini CLI 0.61): `KEY: value` lines, quoted
// values over several lines, the last of a repeated key. Doctor reads the file with dotenv itself; these cases check
// which variables it takes from what dotenv reads, and that a variable the environment already has is kept.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { geminiEnvFileVars } from '../../src/doctor/gemini-env-file.ts';

const root = mkdtempSync(join(tmpdir(), 'linkgate-gemini-env-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// each text as dotenv 17 reads it: only the code-loading variables are taken
const cases: [string, Record<string, string>][] = [
  ['NODE_OPTIONS: --require /x.cjs\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ['export NODE_OPTIONS: "--require /x.cjs" # c\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ["A=1\r\nNODE_OPTIONS:  '--import /x.mjs'\r\n", { NODE_OPTIONS: '--import /x.mjs' }],
  ['NODE_OPTIONS="--no-warnings\n--require /x.cjs"\nB=2\n', { NODE_OPTIONS: '--no-warnings\n--require /x.cjs' }],
  ['NODE_OPTIONS=--no-warnings\nNODE_OPTIONS: --require /x.cjs\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ['NODE_OPTIONS:--require /x.cjs\n', {}],
  ['NODE_OPTIONS = `--require /x.cjs`\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ['X="a\\nb"\nLD_PRELOAD: /x.so # preload\n', { LD_PRELOAD: '/x.so' }],
  ['NODE_OPTIONS=--require /x.cjs #c\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ['__proto__=x\nNODE_OPTIONS=--require /y.cjs\n', { NODE_OPTIONS: '--require /y.cjs' }],
];

let n = 0;
function projectWith(envText: string): { cwd: string; home: string } {
  const base = join(root, `p${n++}`);
  const home = join(base, 'home');
  const cwd = join(home, 'project');
  mkdirSync(join(cwd, '.gemini'), { recursive: true });
  writeFileSync(join(cwd, '.gemini', '.env'), envText);
  return { cwd, home };
}

test.each(cases)('%j: doctor takes what dotenv reads', (text, expected) => {
  const { cwd, home } = projectWith(text);
  const read = geminiEnvFileVars(cwd, home, {}, true, false);
  expect(read.problem).toBeUndefined();
  expect({ ...read.vars }).toEqual(expected);
});

test('a variable the environment already has is not replaced, and an untrusted folder loads nothing', () => {
  const { cwd, home } = projectWith('NODE_OPTIONS=--require /x.cjs\nLD_PRELOAD=/x.so\n');
  expect({ ...geminiEnvFileVars(cwd, home, { NODE_OPTIONS: '' }, true, false).vars }).toEqual({ LD_PRELOAD: '/x.so' });
  expect({ ...geminiEnvFileVars(cwd, home, {}, false, false).vars }).toEqual({});
});

test('an env file that cannot be read is a problem, not an empty file', () => {
  const { cwd, home } = projectWith('');
  rmSync(join(cwd, '.gemini', '.env'));
  mkdirSync(join(cwd, '.gemini', '.env'));
  const read = geminiEnvFileVars(cwd, home, {}, true, false);
  expect(read.problem).toMatch(/cannot be read/);
});
