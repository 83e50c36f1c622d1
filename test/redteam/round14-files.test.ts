// Red team (issue 39, hidden-style round 14), files the hook reads and writes that the agent's shell may reach: the
// records path made a FIFO (no reader: the hook must still answer), a state entry made a FIFO, a `seen-`
// entry rewritten to something the hook never writes (a read of its link from another server must not go through),
// one cut short as by a partial write, and the session's folder swapped for a symlink. Claude Code's hook as the host
// runs it; a link `alpha` returned, read from `beta` (the same-server check) or from `alpha` (the controls).
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: seen entry not a list — hook (src/hook/session-state.ts skipped a `seen-` entry that is no list) — mended by
// redteam17 (such an entry, or a link in one that is not what the hook writes, marks the
// state lost for a uri it holds no link of)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { readRequested, toolReturned } from '../hook/hook-events.ts';
import { caseKeys } from './round-cases.ts';
import { link, metadata } from './scripted-host.ts';

// every key held since redteam17's fix
const open = new Set<string>([]);
const it = caseKeys(open);
const hooks = hookScratch('linkgate-redteam-r14files-');
const key = 'vault://keys/prod';
const returned = toolReturned('alpha', 'links', [link(key, 'key')], { toolUseId: 'toolu_alpha' });
const denied = (stdout: string) => stdout.includes('"permissionDecision":"deny"');

/** The session folders of the hook's state. */
const sessions = () => {
  const state = path.join(hooks.dir, 'state');
  return readdirSync(state)
    .filter((f) => f.startsWith('s-'))
    .map((f) => path.join(state, f));
};
/** Each `seen-` entry of every session. */
const seenEntries = () =>
  sessions().flatMap((s) =>
    readdirSync(s)
      .filter((f) => f.startsWith('seen-'))
      .map((f) => path.join(s, f)),
  );

describe('red team, files (round 14): the records path and state entries as FIFOs and symlinks', () => {
  test('the records path is a FIFO with no reader: the read of the metadata address is still denied', async () => {
    execFileSync('mkfifo', [path.join(hooks.dir, 'r.jsonl')]);
    const run = await hooks.hook('claude-code', readRequested('fixture', metadata));
    expect(run.code === 2 || denied(run.stdout), run.stdout).toBe(true);
  });
  test('a `seen-` entry made a FIFO: the read from beta is denied, the hook answers', async () => {
    await hooks.hook('claude-code', returned);
    for (const entry of seenEntries()) {
      renameSync(entry, `${entry}.old`);
      execFileSync('mkfifo', [entry]);
    }
    const run = await hooks.hook('claude-code', readRequested('beta', key));
    expect(run.code === 2 || denied(run.stdout), run.stdout).toBe(true);
  });
  test("the session's folder swapped for a symlink to a fresh folder: the read from beta is denied", async () => {
    await hooks.hook('claude-code', returned);
    for (const session of sessions()) {
      renameSync(session, `${session}.old`);
      const fresh = path.join(hooks.dir, `fresh-${path.basename(session)}`);
      mkdirSync(fresh, { mode: 0o700 });
      symlinkSync(fresh, session);
    }
    const run = await hooks.hook('claude-code', readRequested('beta', key));
    expect(run.code === 2 || denied(run.stdout), run.stdout).toBe(true);
  });
});

describe('red team, files (round 14): a `seen-` entry the hook did not write', () => {
  const rewrite = (text: string) => {
    for (const entry of seenEntries()) writeFileSync(entry, text);
  };
  it('seen entry not a list')('rewritten as an object: the read from beta is not let through', async () => {
    await hooks.hook('claude-code', returned);
    rewrite('{"seen":"elsewhere"}');
    const run = await hooks.hook('claude-code', readRequested('beta', key));
    expect(run.code === 2 || denied(run.stdout), run.stdout).toBe(true);
  });
  it('seen entry not a list')('rewritten as a list of numbers: the read from beta is not let through', async () => {
    await hooks.hook('claude-code', returned);
    rewrite('[1,2,3]');
    const run = await hooks.hook('claude-code', readRequested('beta', key));
    expect(run.code === 2 || denied(run.stdout), run.stdout).toBe(true);
  });
  test('cut short as by a partial write: the read from beta is not let through', async () => {
    await hooks.hook('claude-code', returned);
    rewrite('[{"server":"alpha","link":{"type":"resource_link","uri":"vault://keys/pr');
    const run = await hooks.hook('claude-code', readRequested('beta', key));
    expect(run.code === 2 || denied(run.stdout), run.stdout).toBe(true);
  });
  test('control: the state as the hook left it: the read from beta is denied (server.mismatch)', async () => {
    await hooks.hook('claude-code', returned);
    const run = await hooks.hook('claude-code', readRequested('beta', key));
    expect(run.stdout).toContain('server.mismatch');
  });
  test('control: the state as the hook left it: the read from alpha goes ahead', async () => {
    await hooks.hook('claude-code', returned);
    const run = await hooks.hook('claude-code', readRequested('alpha', key));
    expect(run.code).toBe(0);
    expect(denied(run.stdout)).toBe(false);
  });
});
