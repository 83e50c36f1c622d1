import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, it } from 'vitest';
import { commands } from '../../src/cli/commands.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

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

describe('every --help example runs as pasted from the package folder', () => {
  it.concurrent.each(commands.map((c) => [c.name, c.example] as const))(
    '%s: %s',
    async (_name, example) => {
      if (needsBuild(example) && !existsSync(path.join(repoRoot, 'dist/demo/demo-server.js'))) {
        console.warn(`skipped: \`${example}\` needs \`npm run build\` first`);
        return;
      }
      // execFile rejects on a non-zero exit: the example must succeed
      await run('bash', ['-o', 'pipefail', '-c', example], {
        cwd: repoRoot,
        env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1' },
        timeout: 60_000,
      });
    },
    90_000,
  );
});
