import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const files = ['README.md', ...readdirSync(path.join(repoRoot, 'docs')).map((f) => path.join('docs', f))].filter((f) =>
  f.endsWith('.md'),
);
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

describe('install and proxy set-up in the docs', () => {
  // the name is not on the registry: `npm install linkgate` fails (or, once someone else takes the name, installs theirs)
  it.each(files)('%s never says `npm install linkgate` by name', (file) => {
    const lines = read(file).split('\n');
    expect(
      lines.filter((line) => /npm (?:install|i|add)\s+(?:-\S+\s+)*linkgate(?:@\S*)?(?:\s|`|$)/.test(line)),
    ).toEqual([]);
  });

  // without `--server` every proxied server is recorded as `default`, and a report cannot tell them apart
  it.each(files)('%s: every proxy command line names its server', (file) => {
    const proxyLines = read(file)
      .split('\n')
      .filter((line) => /linkgate\.js(?:"\s*,\s*"|\s+)proxy\b/.test(line));
    expect(proxyLines.filter((line) => !line.includes('--server'))).toEqual([]);
  });

  it('the README states the host download size the cache really takes, within a quarter', () => {
    const stated = /about (\d+) MiB for Claude Code, Codex and Gemini CLI together/.exec(read('README.md'));
    expect(stated?.[1]).toBeDefined();
    const cache = process.env['LINKGATE_TEST_CACHE'] ?? path.join(homedir(), '.cache', 'linkgate');
    // the cache holds other packages too (the framework suites'): measure the three hosts' folders only
    const entries = existsSync(cache) ? readdirSync(cache) : [];
    const hosts = ['+claude-code', '+codex@', '+gemini-cli@'].map((h) => entries.find((d) => d.includes(h)));
    if (hosts.some((h) => h === undefined)) return; // the real-host suites have not installed all three hosts here
    const folders = hosts.map((h) => path.join(cache, h as string));
    const kib = execFileSync('du', ['-sk', ...folders], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .reduce((sum, line) => sum + Number(line.split('\t')[0]), 0);
    const mb = kib / 1024;
    expect(Math.abs(mb - Number(stated?.[1])) / mb).toBeLessThan(0.25);
  });
});
