// Red team (issue 39, hidden-style round 11), agent-writable files the hook reads at every event, changed between two
// events of a session (rounds 5–10 changed them before the first, or changed the records file and the state folder):
// the policy file replaced by a FIFO with no writer (an open blocks for ever) or by a symlink to `/dev/zero` (a read
// never ends), and the session's list of seen links inflated to 15 MiB of valid entries just under the state's entry
// cap. The hook must answer each next event in the host's fail-closed terms (a read denied, a result withheld), not
// hang and not pass. Each host's hook as its own process on its real event shape; controls: the same events with the
// files as they were.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { hookScratch } from '../hook/hook-args.ts';
import { readRequested } from '../hook/hook-events.ts';
import { handed, postEvents } from './round10-hosts.ts';
import { hostPath, metadata, policyFile } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

const open = new Set<string>([]);
const it = caseKeys(open);

const hooks = hookScratch('linkgate-redteam-r11files-');
const within = { timeout: 60_000 };
const ordinary = 'https://docs.example/guide/a.txt';

/** `hook HOST` over the test's own copy of the default policy (which the agent may change), state and records. */
const hookOwn = (host: string, event: unknown) =>
  runCli(
    [
      'hook',
      host,
      '--policy',
      path.join(hooks.dir, 'policy.yaml'),
      '--state',
      path.join(hooks.dir, 'state'),
      '--records',
      path.join(hooks.dir, 'r.jsonl'),
    ],
    JSON.stringify(event),
  );

// [key, how the agent replaces the policy file]
const swaps: [string, (file: string) => void][] = [
  ['policy fifo', (file) => execFileSync('mkfifo', [file])],
  ['policy dev zero', (file) => symlinkSync('/dev/zero', file)],
];

describe('red team, files (round 11): the policy file replaced between two events', () => {
  for (const [host, event] of postEvents)
    for (const [key, swap] of swaps) {
      it(`${key} ${host}`)(
        `${host}: ${key}: the next result, an ordinary link and the metadata one, is not passed`,
        within,
        async () => {
          copyFileSync(policyFile, path.join(hooks.dir, 'policy.yaml'));
          await hookOwn(host, event([[ordinary, 'guide']], [], 'id_1'));
          rmSync(path.join(hooks.dir, 'policy.yaml'));
          swap(path.join(hooks.dir, 'policy.yaml'));
          const run = await hookOwn(host, event([[metadata, 'creds']], [], 'id_2'));
          // a post event: exit 2 does not withhold (Claude Code hands the result on, DESIGN §4f), so the hook must
          // answer, withholding (reading13 F4)
          expect(run.code, run.stderr).toBe(0);
          expect(handed(run.stdout)).toContain('linkgate');
          expect(handed(run.stdout)).not.toContain(hostPath);
        },
      );
    }

  test('control: claude-code: the policy left as it was: the next result has its notice', async () => {
    copyFileSync(policyFile, path.join(hooks.dir, 'policy.yaml'));
    const [, event] = postEvents[0] as (typeof postEvents)[0];
    await hookOwn('claude-code', event([[ordinary, 'guide']], [], 'id_1'));
    const run = await hookOwn('claude-code', event([[metadata, 'creds']], [], 'id_2'));
    expect(handed(run.stdout)).toContain('linkgate refused the link');
  });
});

describe("red team, files (round 11): the session's seen links inflated", () => {
  /** Replaces each `seen-…` entry of the session with its first link repeated `count` times (each a distinct uri). */
  function inflate(count: number) {
    const state = path.join(hooks.dir, 'state');
    for (const session of readdirSync(state).filter((f) => f.startsWith('s-')))
      for (const entry of readdirSync(path.join(state, session)).filter((f) => f.startsWith('seen-'))) {
        const file = path.join(state, session, entry);
        const [first] = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
        const many = Array.from(
          { length: count },
          (_, i) => JSON.parse(JSON.stringify(first).replaceAll(ordinary, `${ordinary}?p=${i}`)) as unknown,
        );
        writeFileSync(file, JSON.stringify(many));
      }
  }

  test(
    'claude-code: 20 000 seen links (about 10 MiB), then a read of the metadata address: denied',
    within,
    async () => {
      const [, event] = postEvents[0] as (typeof postEvents)[0];
      await hooks.hook('claude-code', event([[ordinary, 'guide']]));
      inflate(20_000);
      const run = await hooks.hook('claude-code', readRequested('fixture', metadata));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('"permissionDecision":"deny"');
    },
  );

  test('control: claude-code: the seen links as the hook wrote them, then the same read: denied', async () => {
    const [, event] = postEvents[0] as (typeof postEvents)[0];
    await hooks.hook('claude-code', event([[ordinary, 'guide']]));
    const run = await hooks.hook('claude-code', readRequested('fixture', metadata));
    expect(run.stdout).toContain('"permissionDecision":"deny"');
  });
});
