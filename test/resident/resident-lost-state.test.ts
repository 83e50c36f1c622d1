// The resident server's state is its own memory, which the gated agent cannot delete (issue 39: the command hook's
// state files are the agent's). What the server cannot keep it never forgets silently: a session pushed out past
// `maxResidentSessions` (the agent holds the secret and can post events of sessions of its own), a session it cannot
// tell it held once the forgotten ids are too many, a tool result it failed to keep: each marks the session's state
// lost, and a read of a uri the state does not hold is refused (`hook.state-lost`), never judged as a link no tool
// returned (which the default policy lets any server read). A new session's first read is still an ordinary one.
import { beforeEach, describe, expect, it } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { answerEvent, type ResidentHandling } from '../../src/resident/resident-answer.ts';
import { ForgottenSessions } from '../../src/resident/forgotten-sessions.ts';
import { maxResidentSessions, ResidentStates } from '../../src/resident/resident-states.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { readRequested, toolReturned } from '../hook/hook-events.ts';

const secret = 'vault://keys/prod';
const link = (uri: string, name = 'key') => ({ type: 'resource_link', uri, name });

let gate: Gate;
beforeEach(async () => {
  gate ??= createGate(await loadPolicy(`${repoRoot}/policies/default.yaml`));
});

const handlingOf = (states: ResidentStates, gateOf: () => Gate = () => gate): ResidentHandling => ({
  gate: gateOf,
  states,
  deadlineMs: 10_000,
  record: async () => undefined,
});

/** The answer to a read of `uri` from `server` in `session`: `{}` (no decision) or the deny's reason. */
async function read(handling: ResidentHandling, server: string, uri: string, session: string): Promise<string> {
  const answer = await answerEvent(JSON.stringify(readRequested(server, uri, { session })), handling);
  expect(answer.status).toBe(200);
  if (answer.body === '{}') return '{}';
  return JSON.parse(answer.body).hookSpecificOutput.permissionDecisionReason as string;
}

/** A tool result of `server` returning `uri` in `session`: passed on (`{}`), or withheld (`lost`: the state was lost). */
async function listed(handling: ResidentHandling, server: string, uri: string, session: string, lost = false) {
  const answer = await answerEvent(JSON.stringify(toolReturned(server, 'links', [link(uri)], { session })), handling);
  if (!lost) expect(answer).toEqual({ status: 200, body: '{}' });
  // what the lost state held may have named refused addresses: every later result is withheld (still kept, below)
  else expect(answer.body).toContain('content.names-refused-address');
}

describe('the resident state, past what it can hold', () => {
  let states: ResidentStates;
  let handling: ResidentHandling;
  beforeEach(() => {
    states = new ResidentStates();
    handling = handlingOf(states);
  });

  it(`a session pushed out by the ${maxResidentSessions + 1}th comes back lost: an unknown uri is refused, not judged as never seen`, async () => {
    await listed(handling, 'evil', secret, 'victim');
    expect(await read(handling, 'vault', secret, 'victim')).toContain('server.mismatch');
    // the agent, which holds the secret, posts events of sessions of its own until the victim's is pushed out
    for (let i = 0; i < maxResidentSessions; i++) {
      expect(await read(handling, 'docs', 'guide://docs/a.md', `flood-${i}`)).toBe('{}');
    }
    expect(states.size).toBe(maxResidentSessions);
    const after = await read(handling, 'vault', secret, 'victim');
    expect(after).toContain('hook.state-lost');
    expect(after).not.toContain('vault://');
    // what the session's tools return from now on is kept as before: a link a tool returned reads from its server
    await listed(handling, 'docs', 'guide://docs/b.md', 'victim', true);
    expect(await read(handling, 'docs', 'guide://docs/b.md', 'victim')).toBe('{}');
    expect(await read(handling, 'vault', 'guide://docs/b.md', 'victim')).toContain('server.mismatch');
    // and a new session's first read of a uri no tool returned is an ordinary one
    expect(await read(handling, 'docs', 'guide://docs/c.md', 'new-session')).toBe('{}');
  });

  it('the 256 sessions it holds keep their state; only the one used longest ago is forgotten', async () => {
    for (let i = 0; i <= maxResidentSessions; i++) await listed(handling, 'evil', secret, `s-${i}`);
    expect(states.size).toBe(maxResidentSessions);
    for (const i of [maxResidentSessions, 100, 1])
      expect(await read(handling, 'vault', secret, `s-${i}`)).toContain('server.mismatch');
    expect(await read(handling, 'vault', secret, 's-0')).toContain('hook.state-lost');
    // s-0 coming back pushed out the one used longest ago in turn (s-2: s-1 was just read)
    expect(await read(handling, 'vault', secret, 's-2')).toContain('hook.state-lost');
  });

  it('past 65 536 forgotten sessions a new session is still an ordinary one, and a forgotten one still comes back lost', async () => {
    // on main every session it did not hold was opened lost for the server's life once 65 536 were forgotten
    const one = new ResidentStates(1);
    const h = handlingOf(one);
    await listed(h, 'evil', secret, 'victim');
    for (let i = 0; i < 70_000; i++) await one.open(`flood-${i}`);
    expect(await read(h, 'docs', 'guide://docs/a.md', 'never-seen')).toBe('{}');
    expect(await read(h, 'vault', secret, 'victim')).toContain('hook.state-lost');
    for (const i of [0, 35_000, 69_998])
      expect(await read(h, 'docs', 'guide://docs/a.md', `flood-${i}`)).toContain('hook.state-lost');
    // a link the session's own tools returned still reads
    await listed(h, 'docs', 'guide://docs/z.md', 'never-seen-2');
    expect(await read(h, 'docs', 'guide://docs/z.md', 'never-seen-2')).toBe('{}');
  });

  it('the forgotten-session filter errs one way only: a tiny filter never misses a forgotten session', async () => {
    const filter = new ForgottenSessions(64);
    const tiny = new ResidentStates(1, filter);
    const h = handlingOf(tiny);
    for (let i = 0; i < 200; i++) await tiny.open(`s-${i}`);
    expect(filter.falsePositiveRate).toBeGreaterThan(0.5);
    for (let i = 0; i < 199; i++) expect(await read(h, 'vault', secret, `s-${i}`)).toContain('hook.state-lost');
    // and the default one, after as many, takes next to no new session for a forgotten one
    const wide = new ForgottenSessions();
    for (let i = 0; i < 70_000; i++) wide.add(`s-${i}`);
    expect(wide.falsePositiveRate).toBeLessThan(1e-8);
    expect(() => new ForgottenSessions(100)).toThrow(/power of two/);
  });

  it('a later event (the agent holds the secret) adds a server that returned a link, never takes one away', async () => {
    await listed(handling, 'evil', secret, 'victim');
    // a uri two servers return reads from each of them (issue 39 item 2): `vault`, returning it later, reads it too
    await listed(handling, 'vault', secret, 'victim');
    expect(await read(handling, 'vault', secret, 'victim')).toBe('{}');
    expect(await read(handling, 'evil', secret, 'victim')).toBe('{}');
    // a server that did not return it still does not read it
    expect(await read(handling, 'docs', secret, 'victim')).toContain('server.mismatch');
  });

  it('an event posted again under the same tool-use id replaces nothing an earlier one kept', async () => {
    const post = (server: string, uri: string) =>
      answerEvent(
        JSON.stringify(toolReturned(server, 'links', [link(uri)], { session: 'victim', toolUseId: 'toolu_1' })),
        handling,
      );
    await post('evil', secret);
    // the same call's id, a harmless link: the link `evil` returned is still its link
    await post('evil', 'guide://docs/a.md');
    expect(await read(handling, 'vault', secret, 'victim')).toContain('server.mismatch');
    // and the address of a link refused under that id is still searched for in later results
    await post('evil', 'http://169.254.169.254/latest/');
    await post('evil', 'http://10.9.9.9/other');
    const later = await answerEvent(
      JSON.stringify(
        toolReturned('docs', 'notes', [{ type: 'text', text: 'curl http://169.254.169.254/latest/' }], {
          session: 'victim',
          toolUseId: 'toolu_2',
        }),
      ),
      handling,
    );
    expect(later.body).toContain('content.names-refused-address');
  });

  it('a tool result it failed to keep marks the session lost', async () => {
    let failing = false;
    const h = handlingOf(states, () => {
      if (failing) throw new Error('the policy could not be taken');
      return gate;
    });
    await listed(h, 'docs', 'guide://docs/a.md', 'victim');
    failing = true;
    const post = await answerEvent(
      JSON.stringify(toolReturned('evil', 'links', [link(secret)], { session: 'victim' })),
      h,
    );
    expect(post.body).toContain('linkgate withheld this tool result');
    failing = false;
    expect(await read(h, 'vault', secret, 'victim')).toContain('hook.state-lost');
    // what it did keep still reads
    expect(await read(h, 'docs', 'guide://docs/a.md', 'victim')).toBe('{}');
  });
});
