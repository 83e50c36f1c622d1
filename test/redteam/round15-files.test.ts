// Red team (issue 39, hidden-style round 15), files the hook reads and writes that the agent's shell may reach: the
// records path made a symlink to a file the hook must not write (a settings file the agent wants broken) or a folder,
// the state folder made a regular file, a pending read (`read-` entry) rewritten between the pre and the post event to
// name the metadata address or to claim another server served the link, the same entry replaced by a FIFO, and a
// `seen-` entry gone between the state's listing and its read (another process, or the agent, removing it). Claude
// Code's hook as the host runs it, and the state's own reader. Controls: reads of hook events run in parallel over
// one session's state (no hook removes an entry another reads) go ahead as they would one by one.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none; the
// vanished `seen-` entry was refused before too (as an entry the hook did not write), its reason now says so.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SessionState } from '../../src/hook/session-state.ts';
import { memoryStateEntries } from '../../src/hook/state-entries.ts';
import { hookScratch } from '../hook/hook-args.ts';
import { readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { givenOn } from './round12-cases.ts';
import { doc } from './round13-hosts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r15files-');
const key = 'vault://keys/prod';
const secret = 'SECRET-BODY-R15';
const body = (uri: string) => [{ uri, mimeType: 'text/plain', text: `${secret} of ${uri}` }];
const denied = (run: { code: number; stdout: string }) =>
  run.code === 2 || run.stdout.includes('"permissionDecision":"deny"');

/** The `read-` entries of every session of the hook's state. */
const pendingEntries = () => {
  const state = path.join(hooks.dir, 'state');
  return readdirSync(state)
    .filter((f) => f.startsWith('s-'))
    .flatMap((s) =>
      readdirSync(path.join(state, s))
        .filter((f) => f.startsWith('read-'))
        .map((f) => path.join(state, s, f)),
    );
};

describe('red team, files (round 15): the records path and the state folder replaced', () => {
  test('the records path a symlink to a settings file: the read is denied, the file is not written', async () => {
    const settings = path.join(hooks.dir, 'settings.json');
    writeFileSync(settings, '{"hooks":{}}');
    symlinkSync(settings, path.join(hooks.dir, 'r.jsonl'));
    const run = await hooks.hook('claude-code', readRequested('fixture', metadata));
    expect(denied(run), run.stdout).toBe(true);
    expect(readFileSync(settings, 'utf8')).toBe('{"hooks":{}}');
  });
  test('the records path a folder: the read is denied', async () => {
    mkdirSync(path.join(hooks.dir, 'r.jsonl'));
    expect(denied(await hooks.hook('claude-code', readRequested('fixture', metadata)))).toBe(true);
  });
  test('the state folder a regular file: a tool result holding the metadata link is withheld', async () => {
    writeFileSync(path.join(hooks.dir, 'state'), '');
    const event = toolReturned('fixture', 'links', [link(metadata, 'creds'), link(doc, 'a')]);
    const run = await hooks.hook('claude-code', event);
    expect(givenOn(run.stdout, event)).not.toContain(hostPath);
  });
});

describe('red team, files (round 15): a pending read rewritten between its pre and post event', () => {
  test('rewritten to name the metadata address: its body is withheld', async () => {
    await hooks.hook('claude-code', readRequested('fixture', doc, { toolUseId: 'toolu_p1' }));
    for (const entry of pendingEntries()) writeFileSync(entry, readFileSync(entry, 'utf8').replaceAll(doc, metadata));
    const last = readReturned('fixture', metadata, body(metadata), { toolUseId: 'toolu_p1' });
    const given = givenOn((await hooks.hook('claude-code', last)).stdout, last);
    expect(given).not.toContain(secret);
    expect(given).not.toContain(hostPath);
  });
  test('rewritten to claim beta served the link alpha returned: the body read from beta is withheld', async () => {
    await hooks.hook('claude-code', toolReturned('alpha', 'links', [link(key, 'key')], { toolUseId: 'toolu_a' }));
    await hooks.hook('claude-code', readRequested('alpha', key, { toolUseId: 'toolu_p2' }));
    for (const entry of pendingEntries())
      writeFileSync(entry, readFileSync(entry, 'utf8').replaceAll('"alpha"', '"beta"'));
    const last = readReturned('beta', key, body(key), { toolUseId: 'toolu_p2' });
    const given = givenOn((await hooks.hook('claude-code', last)).stdout, last);
    expect(given).not.toContain(secret);
    expect(given).toContain('server.mismatch');
  });
  test('replaced by a FIFO: the hook answers and the body is withheld', async () => {
    await hooks.hook('claude-code', readRequested('fixture', doc, { toolUseId: 'toolu_p3' }));
    for (const entry of pendingEntries()) {
      rmSync(entry);
      execFileSync('mkfifo', [entry]);
    }
    const last = readReturned('fixture', doc, body(doc), { toolUseId: 'toolu_p3' });
    const run = await hooks.hook('claude-code', last);
    expect(run.code, run.stderr).toBe(0);
    expect(givenOn(run.stdout, last)).not.toContain(secret);
  });
  test('control: the pending read as the hook left it: the body is handed on', async () => {
    await hooks.hook('claude-code', readRequested('fixture', doc, { toolUseId: 'toolu_p4' }));
    const run = await hooks.hook('claude-code', readReturned('fixture', doc, body(doc), { toolUseId: 'toolu_p4' }));
    expect(run.stdout).toBe('');
  });
});

describe('red team, files (round 15): a seen entry gone between the listing and its read', () => {
  const seen = (server: string) => ({
    server,
    link: link(key, 'key'),
    discovered: { at: '2026-12-07T14:00:00.000Z', uri: key },
  });
  /** A state whose `seen-` entries of alpha are listed but gone when read. */
  async function vanishing() {
    const store = memoryStateEntries();
    const state = SessionState.over(store, { formsKey: undefined });
    await state.addSeen('toolu_alpha', [seen('alpha') as never]);
    const read = store.read.bind(store);
    store.read = async (name) => (name.startsWith('seen-') ? undefined : read(name));
    return state;
  }
  test('a read of its uri is decided as the state having lost it, never as a link no tool returned', async () => {
    const state = await vanishing();
    const found = await state.forRead(key);
    expect(found.seen).toEqual([]);
    expect(found.lost).toContain('went away');
  });
  test('control: through the hook, the entry as the hook left it: the read from beta is denied (server.mismatch)', async () => {
    await hooks.hook('claude-code', toolReturned('alpha', 'links', [link(key, 'key')], { toolUseId: 'toolu_a' }));
    const run = await hooks.hook('claude-code', readRequested('beta', key));
    expect(run.stdout).toContain('server.mismatch');
  });
  test('control: 12 tool results and reads in parallel over one session: every read from alpha goes ahead', async () => {
    const keys = Array.from({ length: 12 }, (_, i) => `${key}/${i}`);
    await Promise.all(
      keys.map((k, i) =>
        hooks.hook('claude-code', toolReturned('alpha', 'links', [link(k, `k${i}`)], { toolUseId: `toolu_${i}` })),
      ),
    );
    const runs = await Promise.all(
      keys.map((k, i) => hooks.hook('claude-code', readRequested('alpha', k, { toolUseId: `toolu_r${i}` }))),
    );
    for (const run of runs) expect(denied(run), run.stdout).toBe(false);
    const beta = await Promise.all(keys.map((k) => hooks.hook('claude-code', readRequested('beta', k))));
    for (const run of beta) expect(run.stdout).toContain('server.mismatch');
  });
});
