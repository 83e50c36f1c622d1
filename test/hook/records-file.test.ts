// The records file never blocks the hook (issue 39 item 1): a FIFO at the `--records` path made the hook wait on its
// open and the host time out, so a pre-read deny was lost (Codex, Gemini CLI, Cursor let the call through on a
// timeout). Now the file is opened without blocking and must be a regular file: anything else fails the event at
// once, closed (exit 2 before the tool ran, the result withheld after it), naming the file. Each case runs the hook as
// its own process, as a host does.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRequested, toolReturned } from './hook-events.ts';
import { runHookProcess } from './hook-process.ts';
import { hookArgs } from './hook-args.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-records-'));
let socketServer: Server;
beforeAll(async () => {
  const made = spawnSync('mkfifo', [join(dir, 'fifo')]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  symlinkSync('/dev/null', join(dir, 'null'));
  socketServer = createServer();
  await new Promise<void>((done) => socketServer.listen(join(dir, 'socket'), done));
});
afterAll(async () => {
  await new Promise((done) => socketServer.close(done));
  rmSync(dir, { recursive: true, force: true });
});

const metadata = 'http://169.254.169.254/latest/meta-data';
const args = (records: string) => hookArgs('claude-code', dir, records);
const timings: string[] = [];
afterAll(() => console.log(`records-file answer times: ${timings.join(', ')}`));

describe.each([
  ['fifo', 'a fifo'],
  ['socket', 'a socket'],
  ['null', 'a character device'],
])('a records path that is %s', (name, kind) => {
  it('a pre-read event exits 2 at once (the host blocks the read), naming the file', async () => {
    const run = await runHookProcess(args(name), JSON.stringify(readRequested('docs', metadata)));
    timings.push(`${name} pre ${run.elapsedMs} ms`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`is not a regular file (${kind})`);
  }, 60_000);

  it('a post event withholds the whole result', async () => {
    const event = toolReturned('docs', 'get', [{ type: 'text', text: `[Resource link: m] ${metadata}` }]);
    const run = await runHookProcess(args(name), JSON.stringify(event));
    timings.push(`${name} post ${run.elapsedMs} ms`);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output).toEqual([{ type: 'text', text: expect.stringContaining('is not a regular file') }]);
  }, 60_000);
});

it('a regular records file gets the record of the refused read', async () => {
  const run = await runHookProcess(args('records.jsonl'), JSON.stringify(readRequested('docs', metadata)));
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  expect(readFileSync(join(dir, 'records.jsonl'), 'utf8')).toContain('uri.non-public-address');
}, 60_000);
