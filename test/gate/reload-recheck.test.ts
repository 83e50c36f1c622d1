// A reload that fails keeps the old policy, but checks it again against the allowed signers as they are now
// (issue 35, item 6): a signer revoked at the same time as the file was broken no longer leaves it deciding.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { holdPolicy } from '../../src/gate/reload-policy.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';

const reviewFolder = reviewFolders();
const link = {
  stage: 'link',
  server: 'docs',
  readFrom: 'docs',
  link: { type: 'resource_link', uri: 'guide://manuals/a', name: 'a' },
};

describe('a failed reload re-checks the kept policy', () => {
  it('denies everything when the kept policy no longer verifies; keeps deciding when it still does', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const holder = await holdPolicy(f.policy, { allowedSigners: f.allowedSigners, env: {} });
    expect((await holder.gate().decide(link)).effect).toBe('allow');
    writeFileSync(f.policy, 'id: [oops');
    const still = await holder.reload();
    expect(still.ok).toBe(false);
    expect((await holder.gate().decide(link)).effect).toBe('allow');
    writeFileSync(f.allowedSigners, '# alice revoked\n');
    const revoked = await holder.reload();
    expect(revoked).toMatchObject({ ok: false });
    expect(revoked.ok === false && revoked.message).toContain('the kept policy no longer verifies');
    const decision = await holder.gate().decide(link);
    expect(decision.effect).toBe('deny');
    expect(decision.reasons.map((r) => r.code)).toContain('policy.unreviewed');
  });
});
