// Red team (issue 39, hidden-style round 13), agent-writable files on the path round 13 opened: the hooks now search
// what a read hands on for the addresses the session refused, which they read from the session's state folder (the
// agent's shell can write it where no sandbox closes it). An entry there that is not a list of addresses (written by
// something else), or a `lost-` marker (the state lost what may have held refusals), leaves the hook not knowing
// every refused address: a read body is then withheld, never handed on searched for fewer, as a tool result is.
// Claude Code's and Codex's hooks as the host runs them. Controls: the same reads with the state as the hook left it.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none
// (mended with the read search by redteam16: src/hook/hook-post-read.ts).
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { givenOn } from './round12-cases.ts';
import { doc, inOrder, readHosts } from './round13-hosts.ts';

const hooks = hookScratch('linkgate-redteam-r13files-');
const plain = 'mirror list: see the mirror of the guide';

/** Writes `name` holding `text` in every session folder of the hook's state. */
function plant(name: string, text: string) {
  const state = path.join(hooks.dir, 'state');
  for (const session of readdirSync(state).filter((f) => f.startsWith('s-')))
    writeFileSync(path.join(state, session, name), text);
}

const plantings: [string, () => void][] = [
  [
    'a refused entry that is not a list of addresses',
    () => plant(`refused-${'f'.repeat(32)}-000000000000.json`, '{"x":1}'),
  ],
  ['a lost marker', () => plant(`lost-${'0'.repeat(16)}.json`, 'lost')],
];

describe('red team, files (round 13): a planted state entry before a read', () => {
  for (const [host, refusal, read] of readHosts.filter(([h]) => h === 'claude-code' || h === 'codex')) {
    for (const [label, planting] of plantings)
      test(`${host}: ${label}: the next read's body is withheld`, async () => {
        await hooks.hook(host, refusal);
        planting();
        const events = read(plain);
        const run = await inOrder(hooks, host, events);
        expect(run.code, run.stderr).toBe(0);
        const given = givenOn(run.stdout, events.at(-1));
        expect(given).toContain('linkgate withheld');
        expect(given).not.toContain(plain);
      });
    test(`control: ${host}: the state as the hook left it: the body of ${doc} is handed on`, async () => {
      await hooks.hook(host, refusal);
      const events = read(plain);
      expect(givenOn((await inOrder(hooks, host, events)).stdout, events.at(-1))).toContain(plain);
    });
  }
});
