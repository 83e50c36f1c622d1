// Pinning against replay (issue 35, item 7): an older reviewed version, or another reviewed policy, copied over the
// file with its `.sig` verifies; `--policy-id` and `--min-version` refuse it (every read denied, policy.unreviewed).
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { runCli } from '../helpers/run-cli.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';
import { readRequested } from './hook-events.ts';

const reviewFolder = reviewFolders();

describe('--policy-id and --min-version', () => {
  it('an older reviewed version copied over the file verifies, and is refused under --min-version', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    // version 1.0.0, signed: the old one an agent keeps a copy of
    f.sign('alice@example.com');
    const old = { policy: join(f.dir, 'old.yaml'), sig: join(f.dir, 'old.yaml.sig') };
    copyFileSync(f.policy, old.policy);
    copyFileSync(f.sig, old.sig);
    // 1.1.0 reviewed and in force; then the agent copies the old pair back
    writeFileSync(f.policy, readFileSync(f.policy, 'utf8').replace('version: 1.0.0', 'version: 1.1.0'));
    writeFileSync(f.sig, '');
    f.sign('alice@example.com');
    copyFileSync(old.policy, f.policy);
    copyFileSync(old.sig, f.sig);
    const hook = (extra: string[]) =>
      runCli(
        [
          'hook',
          'claude-code',
          '--policy',
          f.policy,
          '--state',
          join(f.dir, 'state'),
          '--allowed-signers',
          f.allowedSigners,
          ...extra,
        ],
        JSON.stringify(readRequested('docs', 'guide://manuals/a')),
      );
    expect((await hook([])).stdout).toBe('');
    const pinned = await hook(['--min-version', '1.1.0']);
    expect(pinned.stdout).toContain('"permissionDecision":"deny"');
    expect(pinned.stdout).toContain('below the pinned minimum 1.1.0');
    expect((await hook(['--min-version', '1.0.0'])).stdout).toBe('');
    const foreign = await hook(['--policy-id', 'team-policy']);
    expect(foreign.stdout).toContain('not the pinned');
    expect((await hook(['--policy-id', 'default'])).stdout).toBe('');
  });

  it('loadPolicy takes the pins as options; a pre-release is below its release', async () => {
    const below = await loadPolicy('policies/default.yaml', { env: {}, minVersion: '1.0.1' });
    expect(below.reviewCheck).toMatchObject({ verified: false, problems: ['pinned'] });
    expect(below.document.links.schemes).toEqual([]);
    const at = await loadPolicy('policies/default.yaml', { env: {}, minVersion: '1.0.0-rc.1', policyId: 'default' });
    expect(at.reviewCheck).toBeUndefined();
  });

  it('a malformed pin is a usage error', async () => {
    const run = await runCli(
      ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--min-version', 'two'],
      '{}',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('`--min-version` must be a semantic version');
  });
});
