// Red team (issue 39, fresh session 3), agent-writable files: an agent that can write the records folder but not the
// file it wants to reach. A symlink at the records path is refused (agent-writable-files.test.ts); a hard link is the
// same file under a second name, so the hook, the proxy and `gateTransport` would append a server's text to the file
// it names (a shell start-up file, with a server's `$(…)` in a record). A records file with another hard link is
// refused as a symlink is.
import { linkSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonLinesSink } from '../../src/record/record-sink.ts';
import { readRequested, toolReturned } from '../hook/hook-events.ts';
import { runCli } from '../helpers/run-cli.ts';
import { hookArgs } from '../hook/hook-args.ts';

let dir: string;
let target: string;
const startup = 'export PATH=/usr/bin\n';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-files-'));
  target = join(dir, 'bashrc');
  writeFileSync(target, startup);
  linkSync(target, join(dir, 'r.jsonl'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hook = (event: unknown) => runCli(hookArgs('claude-code', dir), JSON.stringify(event));

describe('red team, agent-writable files: a records file hard-linked to another file', () => {
  it('the hook refuses it before a read, and leaves the other file as it was', async () => {
    const run = await hook(readRequested('docs', 'http://169.254.169.254/$(id>/tmp/pwned)'));
    expect(readFileSync(target, 'utf8')).toBe(startup);
    expect(run.code).toBe(2);
  });

  it('the hook withholds a tool result rather than append its links there', async () => {
    const link = { type: 'resource_link', uri: 'http://169.254.169.254/$(id)', name: '$(touch /tmp/x)' };
    const run = await hook(toolReturned('docs', 'links', [link]));
    expect(readFileSync(target, 'utf8')).toBe(startup);
    expect(run.stdout).toContain('linkgate withheld this tool result');
  });

  it("the proxy's and the decorator's writer refuses it at open", () => {
    expect(() => jsonLinesSink(join(dir, 'r.jsonl'))).toThrow(/another hard link/);
    expect(readFileSync(target, 'utf8')).toBe(startup);
  });
});
