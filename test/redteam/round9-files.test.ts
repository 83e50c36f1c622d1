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
import { loadPolicyCached, policyBuildKey } from '../../src/policy/policy-cache.ts';
import { policyDigest } from '../../src/policy/policy-digest.ts';
import { hookScratch } from '../hook/hook-args.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { link, metadata } from './scripted-host.ts';

// key: forged policy cache — agent-writable files — mended: the hook reads its validated-policy cache only next to the
// installed bundle (src/cli/hook-command.ts, as eval does), never from the state folder; an agent that writes an entry
// there (any name, the format the cache writes, a digest that matches) is not read. From source (these tests) the hook
// keeps no cache at all, so the planted entry is made by the cache's own writer under the key the build would use.
const hooks = hookScratch('linkgate-redteam-r9files-');
const policyFile = path.resolve('policies/default.yaml');

/** The policy cache entries in the hook's state folder. */
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
    test(`${label}: the metadata link is still refused`, async () => {
      const first = await hooks.hook(
        'claude-code',
        toolReturned('fixture', 'links', [link('https://example.com/a', 'a')]),
      );
      expect(first.code, first.stderr).toBe(0);
      // the hook wrote no entry where the agent writes
      expect(entries()).toEqual([]);
      // the agent plants one: the cache's own format, under the key a build would read
      await loadPolicyCached(policyFile, 'policies/default.yaml', {
        dir: path.join(hooks.dir, 'state'),
        buildKey: policyBuildKey() ?? 'linkgate 0.0.0 schema',
      });
      const planted = entries();
      expect(planted.length).toBe(1);
      if (forge !== null) forge(planted[0] as string);
      const run = await hooks.hook(
        'claude-code',
        toolReturned('fixture', 'links', [link(metadata, 'creds')], { toolUseId: 'toolu_2' }),
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('linkgate refused the link');
    });
});
