// A records path that cannot be written is an error at start-up and at `--print-config` (issue 40 item 3): never a
// proxy or hook that runs and loses every record.
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { recordsPathProblem } from '../../src/record/records-file.ts';
import { runCli } from '../helpers/run-cli.ts';
import { shippedPolicy } from '../proxy/proxy-helpers.ts';

async function paths() {
  const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-records-path-'));
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const plain = path.join(dir, 'file');
  await writeFile(plain, 'x');
  return {
    missingFolder: path.join(dir, 'no-such-folder', 'records.jsonl'),
    folder: dir,
    fifo,
    underAFile: path.join(plain, 'records.jsonl'),
    fresh: path.join(dir, 'records.jsonl'),
  };
}

describe('a records path that cannot be written', () => {
  test('is named with why, and a fresh file in an existing folder is fine', async () => {
    const p = await paths();
    expect(recordsPathProblem(p.missingFolder)).toMatch(/its folder `.*no-such-folder` does not exist/);
    expect(recordsPathProblem(p.folder)).toBe('it is a directory');
    expect(recordsPathProblem(p.fifo)).toBe('not a regular file');
    expect(recordsPathProblem(p.underAFile)).toBe('a folder on its path is a file');
    expect(recordsPathProblem(p.fresh)).toBeNull();
  });

  test.each(['claude-code', 'codex', 'gemini-cli'])('`hook %s --print-config` refuses it (exit 2)', async (host) => {
    const p = await paths();
    for (const bad of [p.missingFolder, p.folder, p.fifo]) {
      const run = await runCli(['hook', host, '--print-config', '--records', bad]);
      expect({ bad, code: run.code, stdout: run.stdout }).toEqual({ bad, code: 2, stdout: '' });
      expect(run.stderr).toContain('cannot write records to');
    }
    expect((await runCli(['hook', host, '--print-config', '--records', p.fresh])).code).toBe(0);
  });

  test('`proxy` refuses it at start-up (exit 2), before starting the server', async () => {
    const p = await paths();
    for (const bad of [p.missingFolder, p.folder, p.fifo]) {
      const marker = path.join(p.folder, 'server-started');
      const server = [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`];
      const run = await runCli(['proxy', '--policy', shippedPolicy('default'), '--records', bad, '--', ...server]);
      expect({ bad, code: run.code }).toEqual({ bad, code: 2 });
      expect(run.stderr).toContain('cannot write records to');
      expect(() => execFileSync('test', ['-e', marker])).toThrow();
    }
  });
});
