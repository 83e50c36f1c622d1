// Red team (issue 39, hidden-style round 9), agent-writable files: the validated-policy cache. A hook given `--state`
// keeps its validated policy in that folder (src/cli/hook-command.ts: `policyCacheDir() ?? stateDir` without `--state`
// too when run from source), keyed by the sha-256 of the policy's bytes and the build key, its document checked only
// against the digest stored beside it. Both are computable by anyone who can read the policy and the package, so an
// agent whose shell can write the state folder (round 8: the gated user's own) writes an entry for the unchanged policy
// whose document turns `denyNonPublicAddresses` off: the next event judges by the agent's policy, and the cloud metadata
// link is passed on. (The policy file itself may be one the agent cannot change: installed read-only, or by root; the
// entry still stands for it.) Controls: the same events with the entry as the hook wrote it refuse the link, and an
// entry made unreadable is a miss (the full load refuses it too). The Claude Code hook command, in process.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { policyDigest } from '../../src/policy/policy-digest.ts';
import { hookScratch } from '../hook/hook-args.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { link, metadata } from './scripted-host.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: forged policy cache — agent-writable files (src/cli/hook-command.ts puts the cache in the state folder;
// src/policy/policy-cache.ts trusts an entry the gated user could write) — owner: doctor39 (src/policy: lead)
const open = new Set<string>(['forged entry']);
const it = (key: string) => (open.has(key) ? test.fails : test);

const hooks = hookScratch('linkgate-redteam-r9files-');

/** The policy cache entries the hook wrote in its state folder. */
const entries = () => {
  const state = path.join(hooks.dir, 'state');
  return readdirSync(state)
    .filter((f) => f.startsWith('policy-') && f.endsWith('.json'))
    .map((f) => path.join(state, f));
};

type Forge = (file: string) => void;
const forges: [string, Forge | null][] = [
  ['none (control)', null],
  [
    'entry unreadable (control: a miss)',
    (file) => {
      writeFileSync(file, '{');
    },
  ],
  [
    'forged entry',
    (file) => {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as {
        document: { links: Record<string, unknown> };
        digest: string;
      };
      entry.document.links['denyNonPublicAddresses'] = false;
      entry.digest = policyDigest(entry.document);
      writeFileSync(file, JSON.stringify(entry));
    },
  ],
];

describe('red team, agent-writable files (round 9): the validated-policy cache in the state folder', () => {
  for (const [label, forge] of forges)
    it(label)(`${label}: the metadata link is still refused`, async () => {
      const first = await hooks.hook(
        'claude-code',
        toolReturned('fixture', 'links', [link('https://example.com/a', 'a')]),
      );
      expect(first.code, first.stderr).toBe(0);
      const written = entries();
      expect(written.length).toBe(1);
      if (forge !== null) forge(written[0] as string);
      const run = await hooks.hook(
        'claude-code',
        toolReturned('fixture', 'links', [link(metadata, 'creds')], { toolUseId: 'toolu_2' }),
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('linkgate refused the link');
    });
});
