// `linkgate probe --allowed-signers`: an unreviewed policy probes nothing but denials (no read is sent).
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';
import { recordsOf, runProbe, tsServer } from './run-probe.ts';

const reviewFolder = reviewFolders();
const demo = tsServer('src/demo/demo-server.ts', '--slow-ms', '10');

describe('linkgate probe --allowed-signers', () => {
  it('verified: the demo reads as usual; no signature: every link link-only with policy.unreviewed, nothing requested', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const args = [
      '--policy',
      f.policy,
      '--allowed-signers',
      f.allowedSigners,
      '--tool',
      'show-links',
      '--json',
      '--',
      ...demo,
    ];
    const good = recordsOf(await runProbe(args));
    expect(good.some((r: LinkRecord) => r.verdict === 'body-obtained')).toBe(true);
    rmSync(f.sig);
    const run = await runProbe(args);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('linkgate: policy.unreviewed: no signature');
    const records = recordsOf(run);
    expect(records.length).toBe(good.length);
    for (const r of records) {
      expect(r.verdict).toBe('link-only');
      expect(r.stages.requested).toBeNull();
      expect(r.decisions.link.reasons.map((x) => x.code)).toEqual(['policy.unreviewed']);
    }
  });
});
