// Gemini CLI reads its env file with `dotenv.parse` (dotenv 17, bundled in Gemini CLI 0.61): `KEY: value` lines, quoted
// values over several lines, the last of a repeated key. Each expected value here is what dotenv 17.4.2's `parse`
// returned for the same text (dotenv is not a dependency of linkgate, so it is not loaded here).
import { expect, test } from 'vitest';
import { parseDotenv } from '../../src/doctor/gemini-env-file.ts';

const cases: [string, Record<string, string>][] = [
  ['NODE_OPTIONS: --require /x.cjs\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ['export NODE_OPTIONS: "--require /x.cjs" # c\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ["A=1\r\nNODE_OPTIONS:  '--import /x.mjs'\r\n", { A: '1', NODE_OPTIONS: '--import /x.mjs' }],
  [
    'NODE_OPTIONS="--no-warnings\n--require /x.cjs"\nB=2\n',
    { NODE_OPTIONS: '--no-warnings\n--require /x.cjs', B: '2' },
  ],
  ['NODE_OPTIONS=--no-warnings\nNODE_OPTIONS: --require /x.cjs\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ['NODE_OPTIONS:--require /x.cjs\n', {}],
  ['NODE_OPTIONS = `--require /x.cjs`\n', { NODE_OPTIONS: '--require /x.cjs' }],
  ['X="a\\nb"\nLD_PRELOAD: /x.so # preload\n', { X: 'a\nb', LD_PRELOAD: '/x.so' }],
  ['NODE_OPTIONS=--require /x.cjs #c\n', { NODE_OPTIONS: '--require /x.cjs' }],
];

test.each(cases)('%j is read as dotenv reads it', (text, expected) => {
  expect({ ...parseDotenv(text) }).toEqual(expected);
});
