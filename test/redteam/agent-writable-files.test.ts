// Red team, agent-writable files: an agent that can write the folder of the hook's records file replaces it with a
// symlink to a file of its choosing (`~/.bashrc`); the hook must not append server-chosen text there.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readRequested } from '../hook/hook-events.ts';
import { runCli } from '../helpers/run-cli.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('refuses a records path that is a symlink to a regular file, and leaves that file as it was', async () => {
  const target = join(dir, 'bashrc');
  writeFileSync(target, 'export PATH=/usr/bin\n');
  symlinkSync(target, join(dir, 'r.jsonl'));
  const args = ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
  const event = readRequested('docs', 'http://169.254.169.254/$(id>/tmp/pwned)');
  const run = await runCli([...args, '--records', join(dir, 'r.jsonl')], JSON.stringify(event));
  expect(readFileSync(target, 'utf8')).toBe('export PATH=/usr/bin\n');
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('is a symlink');
});
