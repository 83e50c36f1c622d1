// The front ends print the lint errors of the policy they load, once on stderr at start (issue 32, item 5): a
// policy with `schemes: [https, file]` loads, and `file:///etc/passwd` was read without a word.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-lint-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lint errors at start', () => {
  it('eval names lint.dangerous-scheme once on stderr; a clean policy prints nothing', async () => {
    const policy = join(dir, 'file-scheme.yaml');
    writeFileSync(
      policy,
      readFileSync('policies/default.yaml', 'utf8').replace('schemes: [https, http]', 'schemes: [https, file]'),
    );
    const line = JSON.stringify({
      stage: 'link',
      server: 'docs',
      readFrom: 'docs',
      link: { type: 'resource_link', uri: 'https://example.com/a', name: 'a' },
    });
    const run = await runCli(['eval', '--policy', policy], `${line}\n`);
    expect(run.stderr.match(/lint\.dangerous-scheme/g)).toHaveLength(1);
    const clean = await runCli(['eval', '--policy', 'policies/default.yaml'], `${line}\n`);
    expect(clean.stderr).toBe('');
  });
});
