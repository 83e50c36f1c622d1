// The hook's state folder is checked before anything is written in it (issue 39, red team round 5: agent-writable
// files). The gated agent runs as the same user: it can put a symlink where the state folder (or one above it, or a
// session's folder in it) stands, and the hook wrote its entries through it, into a folder the agent chose. Other
// users must not be able to plant entries either. Each case: the hook fails closed (a read is denied, a tool result
// withheld) and the folder it was pointed at stays empty. Real folders and symlinks; the hook runs in-process as a
// host's command would.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GateError } from '../../src/errors.ts';
import { defaultStateDir, stateCacheRoot } from '../../src/hook/session-state.ts';
import { readyStateFolder } from '../../src/hook/state-folder.ts';
import { currentFileUser } from '../../src/policy/replaceable-file.ts';
import { runCli } from '../helpers/run-cli.ts';
import { hookScratch } from './hook-args.ts';
import { readRequested, toolReturned } from './hook-events.ts';

const scratch = hookScratch('linkgate-state-folder-');
const listed = toolReturned('docs', 'links', [{ type: 'resource_link', uri: 'rt://docs/a.md', name: 'a' }]);
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

const hookAt = (state: string, event: unknown) =>
  runCli(
    [
      'hook',
      'claude-code',
      '--policy',
      'policies/default.yaml',
      '--state',
      state,
      '--records',
      join(scratch.dir, 'r.jsonl'),
    ],
    JSON.stringify(event),
  );

/** The agent's folder, empty, and `at` made a symlink to it. */
function plantedAt(at: string): string {
  const chosen = join(scratch.dir, 'chosen');
  mkdirSync(chosen);
  symlinkSync(chosen, at);
  return chosen;
}

/** A tool result and a read through state folder `state`: both refused, with `why` on the way. */
async function failsClosed(state: string, why: RegExp): Promise<void> {
  const result = await hookAt(state, listed);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(why);
  expect(result.stdout).not.toContain('rt://docs/a.md');
  const read = await hookAt(state, readRequested('docs', 'rt://docs/a.md'));
  expect(read.code).toBe(2);
  expect(read.stderr).toMatch(why);
}

describe('a state folder an agent could have put elsewhere', () => {
  it('control: a missing state folder is made mode 0700 and a listed link reads', async () => {
    const state = join(scratch.dir, 'new', 'state');
    expect((await hookAt(state, listed)).stdout).toBe('');
    expect(statSync(state).mode & 0o777).toBe(0o700);
    const read = await hookAt(state, readRequested('docs', 'rt://docs/a.md'));
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).not.toContain('deny');
  });

  it('a folder above it that is a symlink: refused, nothing written there', async () => {
    const chosen = plantedAt(join(scratch.dir, 'above'));
    await failsClosed(join(scratch.dir, 'above', 'state'), /is reached through the symlink/);
    expect(readdirSync(chosen)).toEqual([]);
  });

  it("a session's folder replaced by a symlink: refused, nothing written there", async () => {
    const state = join(scratch.dir, 'state');
    expect((await hookAt(state, listed)).code).toBe(0);
    const session = join(state, `s-${digest('session-1')}`);
    // the session's folder is now the agent's
    rmSync(session, { recursive: true });
    const chosen = plantedAt(session);
    await failsClosed(state, /state folder .* is not a folder \(a symlink\)/);
    expect(readdirSync(chosen)).toEqual([]);
  });

  it('a plain file: refused with what it is', async () => {
    writeFileSync(join(scratch.dir, 'state'), 'planted');
    await failsClosed(join(scratch.dir, 'state'), /is not a folder \(a file\)/);
  });

  it('a folder its group or others can write: refused', async () => {
    const state = join(scratch.dir, 'state');
    mkdirSync(state);
    chmodSync(state, 0o770);
    await failsClosed(state, /is writable by its group or others \(mode 770\)/);
    expect(readdirSync(state)).toEqual([]);
  });

  it("a folder of another user: refused, by the check's own user", async () => {
    const state = join(scratch.dir, 'state');
    mkdirSync(state, { mode: 0o700 });
    const me = currentFileUser();
    await expect(readyStateFolder(state, me)).resolves.toBe(state);
    const other = { uid: me.uid + 1, gids: [] };
    await expect(readyStateFolder(state, other)).rejects.toThrow(GateError);
    await expect(readyStateFolder(state, other)).rejects.toThrow(`belongs to uid ${me.uid}, not to uid ${other.uid}`);
  });
});

describe('--print-config names the state folder the user meant', () => {
  it('at its real path, so a symlink of theirs on the way is not refused at every event', async () => {
    const chosen = plantedAt(join(scratch.dir, 'mine'));
    const args = ['hook', 'claude-code', '--print-config', '--policy', 'policies/default.yaml'];
    const run = await runCli([...args, '--state', join(scratch.dir, 'mine', 'state')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`--state ${join(chosen, 'state')}`);
    expect(run.stdout).not.toContain(join(scratch.dir, 'mine', 'state'));
  });
});

describe('the default state folder under a cache root the user made a symlink (second reading, finding 3)', () => {
  /** The hook with no `--state`, its cache root `cache` (`$XDG_CACHE_HOME`). */
  const hookDefault = (cache: string, event: unknown) =>
    runCli(
      ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--records', join(scratch.dir, 'r.jsonl')],
      JSON.stringify(event),
      { XDG_CACHE_HOME: cache },
    );
  /** `cache` a symlink to a real folder of the user's (a cache on another disk): that folder. */
  const symlinkedCache = () => {
    const real = join(scratch.dir, 'disk', 'cache');
    mkdirSync(real, { recursive: true, mode: 0o700 });
    symlinkSync(real, join(scratch.dir, 'cache'));
    return real;
  };

  it('is followed: the events run and the state is kept at the real path', async () => {
    const real = symlinkedCache();
    const cache = join(scratch.dir, 'cache');
    const result = await hookDefault(cache, listed);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    const read = await hookDefault(cache, readRequested('docs', 'rt://docs/a.md'));
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).not.toContain('deny');
    expect(readdirSync(join(real, 'linkgate', 'hook')).filter((n) => n.startsWith('s-'))).toHaveLength(1);
    expect(statSync(join(real, 'linkgate', 'hook')).mode & 0o777).toBe(0o700);
  });

  it.each(['linkgate', join('linkgate', 'hook')])(
    'the folders below it are walked as before: %s a symlink is refused, nothing written there',
    async (below) => {
      const real = symlinkedCache();
      if (below !== 'linkgate') mkdirSync(join(real, 'linkgate'), { mode: 0o700 });
      const chosen = plantedAt(join(real, below));
      const cache = join(scratch.dir, 'cache');
      const result = await hookDefault(cache, listed);
      expect(result.stdout).toMatch(/state folder .* (is reached through the symlink|is not a folder \(a symlink\))/);
      expect(result.stdout).not.toContain('rt://docs/a.md');
      expect((await hookDefault(cache, readRequested('docs', 'rt://docs/a.md'))).code).toBe(2);
      expect(readdirSync(chosen)).toEqual([]);
    },
  );

  it('an explicit --state through the same symlink is still refused (--print-config prints the real path)', async () => {
    symlinkedCache();
    await failsClosed(join(scratch.dir, 'cache', 'linkgate', 'hook'), /is reached through the symlink/);
  });
});

describe('a relative $XDG_CACHE_HOME (reading 9, finding 4)', () => {
  it.each(['.cache', 'agent-chosen/cache', './x'])(
    '%s is ignored as the XDG spec says: the default folder is under ~/.cache, not the working folder',
    (relative) => {
      expect(stateCacheRoot({ XDG_CACHE_HOME: relative }, '/home/u')).toBe('/home/u/.cache');
      expect(defaultStateDir({ XDG_CACHE_HOME: relative }, '/home/u')).toBe('/home/u/.cache/linkgate/hook');
    },
  );

  it('an absolute one is the root, an empty one is not set', () => {
    expect(defaultStateDir({ XDG_CACHE_HOME: '/var/cache/u' }, '/home/u')).toBe('/var/cache/u/linkgate/hook');
    expect(defaultStateDir({ XDG_CACHE_HOME: '' }, '/home/u')).toBe('/home/u/.cache/linkgate/hook');
  });
});
