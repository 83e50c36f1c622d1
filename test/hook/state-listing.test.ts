// A pre-read event lists the session's state once (issue 39 item 5): on main it listed it for the links seen, again for
// a lost mark and a third time for the servers of links over the cap, each a `readdir` of the state folder in the
// command hook, on the speed path of every read.
import { beforeAll, describe, expect, it } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { claudeCodeHost } from '../../src/hook/claude-code-host.ts';
import { handleHookEvent } from '../../src/hook/handle-hook-event.ts';
import type { HookEvent } from '../../src/hook/hook-event.ts';
import { SessionState } from '../../src/hook/session-state.ts';
import { memoryStateEntries, type StateEntries } from '../../src/hook/state-entries.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { readRequested, toolReturned } from './hook-events.ts';

let gate: Gate;
beforeAll(async () => {
  gate = createGate(await loadPolicy(`${repoRoot}/policies/default.yaml`));
});

/** A memory store that counts its listings. */
function counted(): { store: StateEntries; listings: () => number } {
  const inner = memoryStateEntries();
  let listings = 0;
  return {
    store: {
      ...inner,
      names: (prefix) => {
        listings += 1;
        return inner.names(prefix);
      },
    },
    listings: () => listings,
  };
}

describe('a pre-read event', () => {
  it.each([
    ['a uri the session never saw', 'guide://docs/never.md', 'docs'],
    ['a uri another server returned', 'guide://docs/a.md', 'other'],
  ])('lists the state once: %s', async (_, uri, server) => {
    const { store, listings } = counted();
    const state = SessionState.over(store);
    const context = { gate, stateDir: '', states: { open: async () => state }, record: async () => undefined };
    const parse = (raw: unknown) => claudeCodeHost.parse(raw as Record<string, unknown>) as HookEvent;
    const link = { type: 'resource_link', uri: 'guide://docs/a.md', name: 'a' };
    await handleHookEvent(parse(toolReturned('docs', 'links', [link])), context);
    const before = listings();
    await handleHookEvent(parse(readRequested(server, uri)), context);
    expect(listings() - before).toBe(1);
  });
});
