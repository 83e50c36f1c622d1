// Red team (issue 39, hidden-style round 12), agent-writable files: the hook's `--records` path, which the agent's
// shell can reach wherever the records live in the project or in a folder it may write, replaced between two events of
// a session by a folder, or by a symlink to `/dev/full` (every write fails with ENOSPC, a device the hook must not
// take for its records file). Issue 39 item 4: a records failure in enforce mode withholds (`onRecordError`, default
// `withhold`), the same in every front end: the next result, holding an ordinary link, must come with the gate's
// notice, and a read of that link must not go ahead unrecorded. Claude Code's and Codex's hooks as their own processes
// on their real event shapes. Controls: the same events with the records file as it was.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { hookScratch } from '../hook/hook-args.ts';
import { postEvents, handed } from './round10-hosts.ts';
import { ordinary } from './round12-cases.ts';
import { caseKeys } from './round-cases.ts';
import { policyFile } from './scripted-host.ts';

const open = new Set<string>([]);
const it = caseKeys(open);

const hooks = hookScratch('linkgate-redteam-r12files-');
const within = { timeout: 60_000 };
const records = () => path.join(hooks.dir, 'r.jsonl');
const hookOwn = (host: string, event: unknown) =>
  runCli(
    ['hook', host, '--policy', policyFile, '--state', path.join(hooks.dir, 'state'), '--records', records()],
    JSON.stringify(event),
  );

// [key, how the agent replaces the records file]
const swaps: [string, (file: string) => void][] = [
  ['records folder', (file) => mkdirSync(file)],
  ['records dev full', (file) => symlinkSync('/dev/full', file)],
];

describe('red team, files (round 12): the records file replaced between two events', () => {
  for (const [host, event] of postEvents.filter(([h]) => h !== 'gemini-cli'))
    for (const [key, swap] of swaps) {
      it(`${key} ${host}`)(`${host}: ${key}: the next result is withheld with the gate's notice`, within, async () => {
        await hookOwn(host, event([[ordinary, 'guide']], [], 'id_1'));
        rmSync(records(), { force: true });
        swap(records());
        const run = await hookOwn(host, event([['https://docs.example/guide/b.txt', 'b']], [], 'id_2'));
        expect(run.code, run.stderr).toBe(0);
        expect(handed(run.stdout)).toContain('linkgate');
      });
      test(`control: ${host}: the records file left as it was: the next result goes on unchanged`, async () => {
        await hookOwn(host, event([[ordinary, 'guide']], [], 'id_1'));
        const run = await hookOwn(host, event([['https://docs.example/guide/b.txt', 'b']], [], 'id_2'));
        expect(handed(run.stdout)).not.toContain('linkgate');
      });
    }
});
