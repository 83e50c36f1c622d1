// Red team (issue 39, hidden-style round 13), cost on the paths round 13 opened and the hosts earlier rounds tried
// least. The hooks now search what a read hands on for the addresses the session refused: a session that refused 250
// links (each address 200 characters), then a read of a 4 MiB body naming the last of them at its end, then one naming
// none; and one result of 20 000 links, the refused one last, through Cline's and Cursor's post hooks. Each hook as
// the host runs it must answer, hand on nothing refused, and let the ordinary body through; CPU and wall time are
// printed as `[measure]`, never asserted.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexReadReturned, codexToolReturned } from '../hook/hook-events.ts';
import { measured } from './round10-hosts.ts';
import { givenOn } from './round12-cases.ts';
import { clineResult, cursorResult, doc } from './round13-hosts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r13cost-');
const within = { timeout: 120_000 };

describe('red team, cost (round 13): a large read body searched for many refused addresses', () => {
  const addresses = Array.from({ length: 250 }, (_, i) => `http://10.1.${i >> 8}.${i & 255}/${'k'.repeat(180)}/${i}`);
  const refuse = () =>
    hooks.hook('codex', codexToolReturned({ content: addresses.map((uri, i) => link(uri, `k${i}`)) }));
  const big = (tail: string) => `${'the quick brown fox jumps over the lazy dog\n'.repeat(100_000)}${tail}`;
  test('codex: 250 refused, a 4 MiB body naming the last at its end: answered, withheld', within, async () => {
    expect((await refuse()).stdout).toContain('linkgate refused');
    const last = addresses.at(-1) as string;
    const event = codexReadReturned('fixture', doc, [{ uri: doc, mimeType: 'text/plain', text: big(last) }]);
    const run = await measured('codex 4 MiB read, 250 refused', () => hooks.hook('codex', event));
    expect(run.code, run.stderr).toBe(0);
    expect(givenOn(run.stdout, event)).not.toContain(last);
  });
  test('control: codex: 250 refused, a 4 MiB body naming none: handed on', within, async () => {
    await refuse();
    const event = codexReadReturned('fixture', doc, [{ uri: doc, mimeType: 'text/plain', text: big('the end') }]);
    const run = await measured('codex 4 MiB read naming none', () => hooks.hook('codex', event));
    expect(run.stdout).toBe('');
  });
});

describe('red team, cost (round 13): 20 000 links through the Cline and Cursor hooks', () => {
  const many = (last: string) => [
    ...Array.from({ length: 20_000 }, (_, i) => link(`https://docs.example/p/${i}.txt`, `p${i}`)),
    link(last, 'creds'),
  ];
  const posts: [string, (items: unknown[]) => unknown][] = [
    ['cline', (items) => clineResult({ content: items })],
    ['cursor', (items) => cursorResult({ content: items })],
  ];
  for (const [host, event] of posts) {
    test(`${host}: answered, the refused link last not handed on`, within, async () => {
      const sent = event(many(metadata));
      const run = await measured(`${host} 20 000 links`, () => hooks.hook(host, sent));
      expect(run.code, run.stderr).toBe(0);
      expect(givenOn(run.stdout, sent)).not.toContain(hostPath);
    });
  }
});
