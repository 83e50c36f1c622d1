import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

// `linkgate` on PATH runs this checkout's source, so each example is pasted into a shell exactly as `--help` prints it
const bin = mkdtempSync(path.join(tmpdir(), 'linkgate-bin-'));
writeFileSync(
  path.join(bin, 'linkgate'),
  `#!/bin/sh\nexec "${path.join(repoRoot, 'node_modules/.bin/tsx')}" "${path.join(repoRoot, 'src/cli/main.ts')}" "$@"\n`,
);
chmodSync(path.join(bin, 'linkgate'), 0o755);
afterAll(() => rmSync(bin, { recursive: true, force: true }));

// the probe's example starts the built demo server (dist/), as it would from an installed package
const needsBuild = (example: string) => example.includes('dist/');

/** Runs `example` in bash (pipefail) from the package folder; its stdout goes to a file. */
async function runExample(example: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-example-'));
  const outFile = path.join(dir, 'stdout');
  const out = openSync(outFile, 'w');
  try {
    const child = spawn('bash', ['-o', 'pipefail', '-c', example], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env['PATH'] ?? ''}`,
        NO_COLOR: '1',
      },
      stdio: ['ignore', out, 'pipe'],
      timeout: 60_000,
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, stdout: readFileSync(outFile, 'utf8'), stderr };
  } finally {
    closeSync(out);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('every --help example runs as pasted from the package folder', () => {
  it.concurrent.each(commands.map((c) => [c.name, c.example] as const))(
    '%s: %s',
    async (_name, example) => {
      if (needsBuild(example) && !existsSync(path.join(repoRoot, 'dist/lib/demo/demo-server.js'))) {
        console.warn(`skipped: \`${example}\` needs \`npm run build\` first`);
        return;
      }
      // the example must succeed
      const run = await runExample(example);
      expect(run.code, run.stderr).toBe(0);
    },
    90_000,
  );
});
