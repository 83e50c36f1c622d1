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

  it('a profile that drops default consumers is named at load, with its place and what is dropped', async () => {
    const policy = join(dir, 'browser-only.yaml');
    writeFileSync(
      policy,
      readFileSync('policies/default.yaml', 'utf8').replace(
        '  maxImagePixels: 50000000',
        '  maxImagePixels: 50000000\n  consumers: [browser, markdown, notebook, pdf-reader]',
      ),
    );
    const line = JSON.stringify({
      stage: 'link',
      server: 'docs',
      readFrom: 'docs',
      link: { type: 'resource_link', uri: 'https://example.com/a', name: 'a' },
    });
    const run = await runCli(['eval', '--policy', policy], `${line}\n`);
    const warnings = run.stderr.split('\n').filter((l) => l.includes('lint.consumers-dropped'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/browser-only\.yaml:43:3: warning lint\.consumers-dropped: .*`launcher`, `shell`/);
  });
});
