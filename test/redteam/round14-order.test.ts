// Red team (issue 39, hidden-style round 14), order of a session's events as the hook gets them: a read's result with
// no pre event before it (the pre hook never ran), a read's result under the tool-use id of an allowed read of another
// uri, a read asked for before the result that returns its link arrives (answered after it), and two sessions
// interleaved over one state folder. Claude Code's hook as the host runs it. Controls: the same orders over an
// ordinary uri and from the server that returned the link.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { givenOn } from './round12-cases.ts';
import { doc, inOrder } from './round13-hosts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r14order-');
const secret = 'SECRET-BODY-7731';
const key = 'vault://keys/prod';
const body = (uri: string) => [{ uri, mimeType: 'text/plain', text: `${secret} from ${uri}` }];
const denied = (stdout: string) => stdout.includes('"permissionDecision":"deny"');

describe('red team, order (round 14): a read result the pre hook did not see', () => {
  test('the metadata read answered with no pre event before it: its body is withheld', async () => {
    const last = readReturned('fixture', metadata, body(metadata), { toolUseId: 'toolu_r1' });
    const run = await hooks.hook('claude-code', last);
    const given = givenOn(run.stdout, last);
    expect(given).not.toContain(secret);
    expect(given).not.toContain(hostPath);
  });
  test('an allowed read of doc, then a result under its id for the metadata uri: withheld', async () => {
    const pre = readRequested('fixture', doc, { toolUseId: 'toolu_r2' });
    const last = readReturned('fixture', metadata, body(metadata), { toolUseId: 'toolu_r2' });
    const run = await inOrder(hooks, 'claude-code', [pre, last]);
    expect(givenOn(run.stdout, last)).not.toContain(secret);
  });
  test('control: an allowed read of doc answered under its id: handed on', async () => {
    const pre = readRequested('fixture', doc, { toolUseId: 'toolu_r3' });
    const run = await inOrder(hooks, 'claude-code', [
      pre,
      readReturned('fixture', doc, body(doc), { toolUseId: 'toolu_r3' }),
    ]);
    expect(run.stdout).toBe('');
  });
});

describe('red team, order (round 14): a read asked for before the result returning its link arrives', () => {
  const alpha = toolReturned('alpha', 'links', [link(key, 'key')], { toolUseId: 'toolu_alpha' });
  test('asked from beta, alpha returns the link, answered from beta: its body is withheld', async () => {
    const pre = readRequested('beta', key, { toolUseId: 'toolu_rb' });
    const last = readReturned('beta', key, body(key), { toolUseId: 'toolu_rb' });
    const first = await hooks.hook('claude-code', pre);
    const run = await inOrder(hooks, 'claude-code', [alpha, last]);
    expect(denied(first.stdout) || !givenOn(run.stdout, last).includes(secret)).toBe(true);
  });
  test('control: asked from alpha, alpha returns the link, answered from alpha: handed on', async () => {
    const pre = readRequested('alpha', key, { toolUseId: 'toolu_ra' });
    const last = readReturned('alpha', key, body(key), { toolUseId: 'toolu_ra' });
    const run = await inOrder(hooks, 'claude-code', [pre, alpha, last]);
    expect(givenOn(run.stdout, last)).toContain(secret);
  });
});

describe('red team, order (round 14): two sessions interleaved over one state folder', () => {
  const returned = (server: string, session: string) =>
    toolReturned(server, 'links', [link(key, 'key')], { session, toolUseId: `toolu_${server}_${session}` });
  test('alpha returns the link in session A, beta in session B: A reading it from beta is denied', async () => {
    await inOrder(hooks, 'claude-code', [returned('alpha', 'A'), returned('beta', 'B')]);
    const run = await hooks.hook('claude-code', readRequested('beta', key, { session: 'A' }));
    expect(run.stdout).toContain('server.mismatch');
  });
  test('session B refuses the metadata link; session A then reads it: denied', async () => {
    await hooks.hook('claude-code', toolReturned('alpha', 'links', [link(metadata, 'creds')], { session: 'B' }));
    const run = await hooks.hook('claude-code', readRequested('alpha', metadata, { session: 'A' }));
    expect(denied(run.stdout)).toBe(true);
    expect(run.stdout).not.toContain(hostPath);
  });
  test('control: session A reading it from alpha, which returned it to A: goes ahead', async () => {
    await inOrder(hooks, 'claude-code', [returned('alpha', 'A'), returned('beta', 'B')]);
    expect(denied((await hooks.hook('claude-code', readRequested('alpha', key, { session: 'A' }))).stdout)).toBe(false);
  });
});
