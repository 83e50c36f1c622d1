// Red team (issue 39, hidden-style round 13), order across a session's events: a link refused in one server's tool
// result, then a read from another server whose body names its address; the read asked for (its pre event) before the
// refusing result arrived and answered after it (the host runs calls in parallel); many servers each refusing one
// link, the read naming the one in the middle. The decorator and the read tool withhold such a body whichever
// connection refused the link (round 9); the hooks searched no read body at all. Claude Code's and Codex's hooks as
// the host runs them, on their event shapes. Controls: the same orders with a body naming nothing refused.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none
// (mended by redteam16: src/hook/hook-post-read.ts searches what a read hands on).
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import {
  codexReadReturned,
  codexToolReturned,
  readRequested,
  readReturned,
  toolReturned,
} from '../hook/hook-events.ts';
import { givenOn } from './round12-cases.ts';
import { doc, inOrder } from './round13-hosts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r13order-');
const body = (text: string) => [{ uri: doc, mimeType: 'text/plain', text }];
const naming = (address: string) => `mirror: ${address}`;
const plain = 'fold the shirts';

describe('red team, order (round 13): Claude Code, a refusal and a read from another server', () => {
  const refusal = toolReturned('alpha', 'links', [link(metadata, 'creds')], { toolUseId: 'toolu_a' });
  const read = (text: string) => readReturned('beta', doc, body(text));
  test('refused on alpha, read from beta naming it: withheld', async () => {
    const last = read(naming(metadata));
    const run = await inOrder(hooks, 'claude-code', [refusal, readRequested('beta', doc), last]);
    expect(givenOn(run.stdout, last)).not.toContain(hostPath);
  });
  test('read asked for before the refusal arrived, answered after it: withheld', async () => {
    const last = read(naming(metadata));
    const run = await inOrder(hooks, 'claude-code', [readRequested('beta', doc), refusal, last]);
    expect(givenOn(run.stdout, last)).not.toContain(hostPath);
  });
  test('control: the same order, a body naming nothing refused: handed on', async () => {
    const run = await inOrder(hooks, 'claude-code', [readRequested('beta', doc), refusal, read(plain)]);
    expect(run.stdout).toBe('');
  });
});

describe('red team, order (round 13): Codex, many servers each refusing one link', () => {
  const addresses = [1, 2, 3, 4, 5].map((n) => `http://10.0.0.${n}/admin/keys-${n}`);
  const refusals = addresses.map((uri, i) =>
    codexToolReturned({ content: [link(uri, `k${i}`)] }, { server: `s${i}`, toolUseId: `call_${i}` }),
  );
  test('five servers refuse five links; a read from a sixth naming the third: withheld', async () => {
    for (const event of refusals) expect((await hooks.hook('codex', event)).stdout).toContain('linkgate refused');
    const last = codexReadReturned('s6', doc, body(naming(addresses[2] as string)));
    const run = await hooks.hook('codex', last);
    expect(givenOn(run.stdout, last)).not.toContain('10.0.0.3');
  });
  test('control: the same five refusals, a read naming an address none refused: handed on', async () => {
    for (const event of refusals) await hooks.hook('codex', event);
    const run = await hooks.hook('codex', codexReadReturned('s6', doc, body(naming('http://10.0.0.9/open'))));
    expect(run.stdout).toBe('');
  });
});
