import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const files = ['README.md', ...readdirSync(path.join(repoRoot, 'docs')).map((f) => path.join('docs', f))].filter((f) =>
  f.endsWith('.md'),
);
// a host configured with `npx -y linkgate` (or `npx linkgate` as a server or hook command) fetches and runs whatever
// is published under that name: the docs configure the installed bundle by its path instead
const fetchAndRun =
  /npx\s+-y\s+linkgate\b|"-y",\s*"linkgate"|npx\s+linkgate\s+(?:proxy|hook)\b|"npx",\s*"args":\s*\["linkgate"/;

describe('no host configuration in the docs or the help runs `npx -y linkgate`', () => {
  it.each(files)('%s', (file) => {
    const lines = readFileSync(path.join(repoRoot, file), 'utf8').split('\n');
    expect(lines.filter((line) => fetchAndRun.test(line) && !/\bnever\b/i.test(line))).toEqual([]);
  });

  it.each(['hook', 'proxy'])('linkgate %s --help', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.stdout).not.toMatch(/npx\s+(-y\s+)?linkgate/);
  });
});
