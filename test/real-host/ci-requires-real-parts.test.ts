// Under CI=true a green run must mean the real parts ran: with an empty test cache and no registry, the real-host and
// real-framework suites fail, naming what is missing, instead of skipping. Runs vitest itself on two such suites.
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { repoRoot } from '../helpers/shared-dir.ts';
import { runProcess } from './run-process.ts';

// a loopback port nothing listens on: taken, then given back
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

describe('under CI=true, a missing real part fails its suite', () => {
  test('an empty cache and no registry: the codex and langchain suites exit non-zero, naming the part', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-no-parts-'));
    scratch.push(dir);
    const port = await closedPort();
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: dir,
      CI: 'true',
      NO_COLOR: '1',
      LINKGATE_TEST_CACHE: path.join(dir, 'cache'),
      npm_config_registry: `http://127.0.0.1:${port}/`,
      npm_config_cache: path.join(dir, 'npm-cache'),
      npm_config_fetch_retries: '0',
      npm_config_update_notifier: 'false',
    };
    const run = await runProcess(
      process.execPath,
      [
        path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--reporter=default',
        'test/real-host/codex-cli-smoke.test.ts',
        'test/frameworks/langchain.test.ts',
      ],
      { env, cwd: repoRoot, timeoutMs: 170_000 },
    );
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.timedOut, out).toBe(false);
    expect(run.exitCode, out).not.toBe(0);
    expect(out).toContain('codex cli is required under CI=true and is not available');
    expect(out).toContain('langchain is required under CI=true and is not available');
    expect(out).toContain('real part missing: codex cli');
    // vitest lists the tests of a file whose set-up failed as not run; the files themselves fail
    expect(out).toMatch(/Test Files\s+2 failed/);
  });
});
