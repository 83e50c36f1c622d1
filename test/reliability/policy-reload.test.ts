import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdPolicy } from '../../src/gate/reload-policy.ts';

const line = {
  stage: 'link',
  server: 'docs',
  link: { type: 'resource_link', uri: 'http://93.184.215.14/a', name: 'a' },
};

describe('policy reload', () => {
  it('switches to a valid new policy and keeps the old one in force when the new file fails validation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkgate-reload-'));
    const file = join(dir, 'policy.yaml');
    copyFileSync('policies/default.yaml', file);
    const holder = await holdPolicy(file);
    const first = holder.gate();
    expect((await first.decide(line)).effect).toBe('allow');

    writeFileSync(file, readFileSync(file, 'utf8').replace('readTimeoutMs: 10000', 'readTimeoutMs: 0'));
    const failed = await holder.reload();
    expect(failed.ok).toBe(false);
    if (!failed.ok) {
      expect(failed.kept).toEqual(first.policy.ref);
      expect(failed.diagnostics[0]).toMatchObject({ file, path: expect.stringContaining('readTimeoutMs') });
    }
    expect(holder.gate()).toBe(first);

    writeFileSync(file, readFileSync('policies/strict.yaml', 'utf8'));
    const ok = await holder.reload();
    expect(ok).toMatchObject({ ok: true, previous: first.policy.ref });
    const second = holder.gate();
    expect(second.policy.ref.id).toBe('strict');
    const d = await second.decide(line);
    expect(d.effect).toBe('deny');
    expect(d.policy).toEqual(second.policy.ref);
    // a snapshot taken before the reload still decides with the old policy, whole
    expect((await first.decide(line)).policy).toEqual(first.policy.ref);
  });

  it('reports an unreadable file and keeps the old policy', async () => {
    const holder = await holdPolicy('policies/default.yaml');
    const out = await holder.reload('policies/does-not-exist.yaml');
    expect(out).toMatchObject({
      ok: false,
      kept: { id: 'default' },
      message: expect.stringContaining('does-not-exist'),
    });
    expect(holder.gate().policy.ref.id).toBe('default');
  });
});
