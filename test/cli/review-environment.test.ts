// The environment's review check (issue 35, items 5 and 6): `diff` and `test` judge policy content and ignore
// LINKGATE_ALLOWED_SIGNERS (an unsigned proposal would deny everything: "does not loosen", every case failing);
// a set but empty LINKGATE_ALLOWED_SIGNERS is an error like the empty option, never a silent "no check".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { runCli } from '../helpers/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-review-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const allowedSigners = join(dir, 'allowed_signers');
writeFileSync(allowedSigners, '# nobody: no policy here verifies\n');
afterEach(() => vi.unstubAllEnvs());

// the variable exported for a whole CI job: in the process environment and in the command's
function withSignersEnv(value: string): Record<string, string> {
  vi.stubEnv('LINKGATE_ALLOWED_SIGNERS', value);
  return { LINKGATE_ALLOWED_SIGNERS: value };
}

describe('diff and test under LINKGATE_ALLOWED_SIGNERS', () => {
  it('diff still reports a loosening (strict → default), exit 1', async () => {
    const env = withSignersEnv(allowedSigners);
    const run = await runCli(
      ['diff', 'policies/strict.yaml', 'policies/default.yaml', '--cases', 'policies/strict.cases.yaml'],
      '',
      env,
    );
    expect(run.stdout).toContain('LOOSENS');
    expect(run.code).toBe(1);
  });

  it("test judges the policy's cases, not its review: the shipped default passes", async () => {
    const env = withSignersEnv(allowedSigners);
    const run = await runCli(['test', 'policies/default.yaml'], '', env);
    expect(run.stdout).not.toContain('policy.unreviewed');
    expect(run.code).toBe(0);
  });

  it('--help of both says the review is not checked', async () => {
    for (const command of ['diff', 'test']) {
      const run = await runCli([command, '--help']);
      expect(run.stdout).toContain('never the review');
    }
  });
});

describe('an empty LINKGATE_ALLOWED_SIGNERS', () => {
  it('is a usage error for a command that checks reviews, like the empty option', async () => {
    const run = await runCli(['eval', '--policy', 'policies/default.yaml'], '', { LINKGATE_ALLOWED_SIGNERS: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('LINKGATE_ALLOWED_SIGNERS must not be empty');
    const hook = await runCli(['hook', 'claude-code', '--policy', 'policies/default.yaml'], '{}', {
      LINKGATE_ALLOWED_SIGNERS: '',
    });
    expect(hook.code).toBe(2);
    expect(hook.stderr).toContain('must not be empty');
  });

  it('is an error for loadPolicy, not a policy loaded without the check', async () => {
    await expect(loadPolicy('policies/default.yaml', { env: { LINKGATE_ALLOWED_SIGNERS: '' } })).rejects.toMatchObject({
      code: 'USAGE',
    });
  });
});
