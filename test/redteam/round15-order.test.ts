// Red team (issue 39, hidden-style round 15), order of a session's events: a read allowed from one server answered
// under its id by another, one tool-use id reused for an allowed read and a denied one before a result arrives, a
// read's result before its pre event (the host ran them in parallel; the late pre event after it), Codex's read of a
// link from another server than returned it (Codex sends no pre event for it), and the Copilot SDK's post hook
// arriving before its pre-MCP hook named the server, or named in another session. Claude Code's and Codex's hooks as
// the hosts run them, the Copilot SDK's in process. Controls: the same orders read from the server that returned it.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexReadReturned, readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { givenOn } from './round12-cases.ts';
import { doc, inOrder } from './round13-hosts.ts';
import { codexResult, copilotHooks } from './round15-fronts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r15order-');
const key = 'vault://keys/prod';
const secret = 'SECRET-BODY-R15-ORDER';
const body = (uri: string) => [{ uri, mimeType: 'text/plain', text: `${secret} of ${uri}` }];
const alpha = toolReturned('alpha', 'links', [link(key, 'key')], { toolUseId: 'toolu_alpha' });
const denied = (run: { code: number; stdout: string }) =>
  run.code === 2 || run.stdout.includes('"permissionDecision":"deny"');

describe('red team, order (round 15): Claude Code, ids reused and events out of order', () => {
  test('read allowed from alpha, answered under its id from beta: the body is withheld', async () => {
    const last = readReturned('beta', key, body(key), { toolUseId: 'toolu_x' });
    const run = await inOrder(hooks, 'claude-code', [
      alpha,
      readRequested('alpha', key, { toolUseId: 'toolu_x' }),
      last,
    ]);
    expect(givenOn(run.stdout, last)).not.toContain(secret);
  });
  test('one id for an allowed read of doc and a denied read of the metadata uri: its result is withheld', async () => {
    const first = await hooks.hook('claude-code', readRequested('fixture', doc, { toolUseId: 'toolu_y' }));
    expect(denied(first)).toBe(false);
    expect(denied(await hooks.hook('claude-code', readRequested('fixture', metadata, { toolUseId: 'toolu_y' })))).toBe(
      true,
    );
    const last = readReturned('fixture', metadata, body(metadata), { toolUseId: 'toolu_y' });
    const given = givenOn((await hooks.hook('claude-code', last)).stdout, last);
    expect(given).not.toContain(secret);
    expect(given).not.toContain(hostPath);
  });
  test('the result of a read from beta before its pre event, then the late pre event: withheld, then denied', async () => {
    await hooks.hook('claude-code', alpha);
    const last = readReturned('beta', key, body(key), { toolUseId: 'toolu_z' });
    expect(givenOn((await hooks.hook('claude-code', last)).stdout, last)).not.toContain(secret);
    expect(denied(await hooks.hook('claude-code', readRequested('beta', key, { toolUseId: 'toolu_z' })))).toBe(true);
  });
  test('control: the same read from alpha, its result before its pre event: handed on', async () => {
    await hooks.hook('claude-code', alpha);
    const last = readReturned('alpha', key, body(key), { toolUseId: 'toolu_w' });
    expect(givenOn((await hooks.hook('claude-code', last)).stdout, last)).toContain(secret);
  });
});

describe('red team, order (round 15): Codex, a read from another server than returned the link', () => {
  const returned = codexResult({ content: [link(key, 'key')] });
  test('alpha (as fixture) returns the link, beta answers its read: the body is withheld', async () => {
    await hooks.hook('codex', returned);
    const last = codexReadReturned('beta', key, body(key));
    expect(givenOn((await hooks.hook('codex', last)).stdout, last)).not.toContain(secret);
  });
  test('control: the read answered by the server that returned it: handed on', async () => {
    await hooks.hook('codex', returned);
    expect((await hooks.hook('codex', codexReadReturned('fixture', key, body(key)))).stdout).toBe('');
  });
});

describe("red team, order (round 15): the Copilot SDK's post hook before or beside its pre-MCP hook", () => {
  const post = (session: string, contents: unknown[]) => ({
    sessionId: session,
    timestamp: new Date(),
    workingDirectory: '/tmp',
    toolName: 'docs-links',
    toolArgs: {},
    toolResult: { textResultForLlm: 'ok', resultType: 'success', contents },
  });
  test('a post with no pre-MCP hook before it: the metadata link is refused', async () => {
    const copilot = await copilotHooks(hooks.dir);
    const answer = await copilot.onPostToolUse(post('s1', [link(metadata, 'creds')]), { sessionId: 's1' });
    expect(JSON.stringify(answer ?? {})).toContain('linkgate refused');
    expect(JSON.stringify(answer ?? {})).not.toContain(hostPath);
  });
  test('the pre-MCP hook named in session s2, the post in s1: the metadata link is refused', async () => {
    const copilot = await copilotHooks(hooks.dir);
    const named = { sessionId: 's2', serverName: 'docs', toolName: 'links', arguments: {} };
    await copilot.onPreMcpToolCall(named, { sessionId: 's2' });
    const answer = await copilot.onPostToolUse(post('s1', [link(metadata, 'creds')]), { sessionId: 's1' });
    expect(JSON.stringify(answer ?? {})).not.toContain(hostPath);
    expect(JSON.stringify(answer ?? {})).toContain('linkgate');
  });
  test('control: a post with no pre-MCP hook before it, an ordinary link: left alone', async () => {
    const copilot = await copilotHooks(hooks.dir);
    expect(await copilot.onPostToolUse(post('s1', [link(doc, 'a')]), { sessionId: 's1' })).toBeUndefined();
  });
});
