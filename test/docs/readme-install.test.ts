import { readdirSync, readFileSync } from 'node:fs';
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
});
