// State can only tighten (issue 35, item 2): the hook's state folder is writable by the gated agent (same user), so
// a pending-read entry changed between the pre and the post event, or planted for a read the pre event denied,
// neither switches enforcement to observe nor turns a denied link into an allowed one.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { readRequested, readReturned } from './hook-events.ts';

let dir: string;
let state: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-state-'));
  state = join(dir, 'state');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hook = (event: unknown) =>
  runCli(['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', state], JSON.stringify(event));
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
const sessionDir = () => join(state, `s-${digest('session-1')}`);
const pendingFile = (toolUseId: string) => join(sessionDir(), `read-${digest(toolUseId)}.json`);
const body = 'secret body 5c1e';

describe('the hook state can only tighten', () => {
  it('a pending read switched to observe between pre and post is still enforced', async () => {
    const uri = 'guide://manuals/page';
    expect((await hook(readRequested('docs', uri))).stdout).toBe('');
    const file = pendingFile('toolu_read');
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(entry['mode']).toBe('enforce');
    writeFileSync(file, JSON.stringify({ ...entry, mode: 'observe' }));
    // text/html is not in the default policy's content.allow: withheld
    const run = await hook(readReturned('docs', uri, [{ uri, mimeType: 'text/html', text: `<p>${body}</p>` }]));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('withheld');
    expect(run.stdout).not.toContain(body);
  });

  it('a pending read planted for a link the pre event denied does not let its body through', async () => {
    const allowed = 'guide://manuals/page';
    await hook(readRequested('docs', allowed, { toolUseId: 'toolu_ok' }));
    const denied = 'http://127.0.0.1/admin';
    const pre = await hook(readRequested('docs', denied, { toolUseId: 'toolu_bad' }));
    expect(pre.stdout).toContain('"permissionDecision":"deny"');
    // the agent copies the allowed read's pending entry (its allow) to the denied read's name
    const entry = JSON.parse(readFileSync(pendingFile('toolu_ok'), 'utf8')) as Record<string, unknown>;
    writeFileSync(pendingFile('toolu_bad'), JSON.stringify(entry));
    expect(readdirSync(sessionDir())).toContain(`read-${digest('toolu_bad')}.json`);
    const run = await hook(
      readReturned('docs', denied, [{ uri: denied, mimeType: 'text/plain', text: body }], { toolUseId: 'toolu_bad' }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('uri.non-public-address');
    expect(run.stdout).not.toContain(body);
  });

  it('a pending entry that denied stays denied (a stricter entry is kept)', async () => {
    const uri = 'guide://manuals/page';
    const observe = await runCli(
      ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', state, '--mode', 'observe'],
      JSON.stringify(readRequested('docs', 'http://127.0.0.1/x', { toolUseId: 'toolu_denied' })),
    );
    expect(observe.stdout).toBe('');
    // the observe-mode pre event kept its deny; moved to the name of an allowed read, it withholds that read
    const denied = JSON.parse(readFileSync(pendingFile('toolu_denied'), 'utf8')) as Record<string, unknown>;
    expect((denied['linkDecision'] as { effect: string }).effect).toBe('deny');
    writeFileSync(pendingFile('toolu_read'), JSON.stringify(denied));
    const run = await hook(readReturned('docs', uri, [{ uri, mimeType: 'text/plain', text: body }]));
    expect(run.stdout).not.toContain(body);
  });

  it('a FIFO planted as the pending entry fails the event closed instead of hanging it', async () => {
    const uri = 'guide://manuals/page';
    await hook(readRequested('docs', uri));
    const file = pendingFile('toolu_read');
    rmSync(file);
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    const run = await hook(readReturned('docs', uri, [{ uri, mimeType: 'text/plain', text: body }]));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('the hook failed');
    expect(run.stdout).toContain('not a regular file');
    expect(run.stdout).not.toContain(body);
  });
});
