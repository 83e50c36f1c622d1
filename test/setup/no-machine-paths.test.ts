// The tracked files speak of the project, never of the machine a session ran on: a working folder's absolute path
// (a scratch notes file, a worktree) in a comment or a test means nothing to a clone, and one in code breaks it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
// the working folders of the machine the project has been built on (examples such as `/home/alice/app` are not
// of it); a clone's own path is read from the repository, never written
const machineFolders = /(?:^|[\s`'"(=])\/(?:work|root)\/[\w.-]/;

test('no tracked text file names a path of the machine it was written on', () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && f !== 'package-lock.json' && !f.startsWith('test/fixtures/'));
  const found: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(path.join(repoRoot, file), 'utf8');
    } catch {
      continue; // a file of the index this checkout does not have
    }
    if (text.includes('\0')) continue;
    text.split('\n').forEach((line, i) => {
      if (machineFolders.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
    });
  }
  expect(found).toEqual([]);
});
