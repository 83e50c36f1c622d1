// A records path reached through a symlinked folder is refused (issue 39, red team: agent-writable files). The records
// file itself was opened O_NOFOLLOW by the hook, but a folder above it replaced by a symlink still sent the records
// (lines a server's text fills) into a folder an agent running as the same user chose, under the name the user chose;
// the proxy's and the decorator's writer (`jsonLinesSink`) followed even a symlink at the file itself. Now the folder
// is walked from the root: a symlink the running user could have made or replaced is refused, one they could not
// (root's, in a folder only root writes) is followed, and `--print-config` prints the real folder the user named.
// Real symlinks throughout; the hook runs as its own process, as a host runs it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GateError } from '../../src/errors.ts';
import { jsonLinesSink } from '../../src/record/record-sink.ts';
import { realRecordsPath } from '../../src/record/records-folder.ts';
import { runCli } from '../helpers/run-cli.ts';
import { toolReturned } from './hook-events.ts';
import { runHookProcess } from './hook-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-records-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// the folder the records were meant for, and one an agent would rather have them in (holding a file of that name)
const meant = join(dir, 'meant');
const chosen = join(dir, 'chosen');
mkdirSync(meant);
mkdirSync(chosen);
writeFileSync(join(chosen, 'records.jsonl'), 'the agent picked this file\n');
// the agent's move: the folder on the records path is now a symlink to its folder
const planted = join(dir, 'planted');
symlinkSync(chosen, planted);

const metadata = 'http://169.254.169.254/latest/meta-data';
const untouched = () =>
  expect(readFileSync(join(chosen, 'records.jsonl'), 'utf8')).toBe('the agent picked this file\n');

describe('a records path whose folder is a symlink the running user could have made', () => {
  it('the hook withholds the result and writes nothing through it', async () => {
    const event = toolReturned('docs', 'get', [{ type: 'text', text: `[Resource link: m] ${metadata}` }]);
    const args = ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
    const run = await runHookProcess([...args, '--records', join(planted, 'records.jsonl')], JSON.stringify(event));
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output).toEqual([{ type: 'text', text: expect.stringContaining('is reached through the symlink') }]);
    untouched();
  }, 60_000);

  it("the proxy's and the decorator's writer refuses it at open", () => {
    expect(() => jsonLinesSink(join(planted, 'records.jsonl'))).toThrow(/is reached through the symlink/);
    expect(() => jsonLinesSink(join(planted, 'records.jsonl'))).toThrow(GateError);
    untouched();
  });

  it('a nested path under it is refused too', () => {
    mkdirSync(join(chosen, 'deeper'), { recursive: true });
    expect(realRecordsPath(join(planted, 'deeper', 'r.jsonl'))).toEqual({
      problem: expect.stringContaining(`the symlink \`${planted}\``),
    });
  });
});

it("the proxy's and the decorator's writer does not follow a symlink at the records file itself", async () => {
  const link = join(meant, 'linked.jsonl');
  symlinkSync(join(chosen, 'records.jsonl'), link);
  expect(() => jsonLinesSink(link)).toThrow(/symlink/);
  untouched();
});

it("a symlink the user could not have made (root's, in a folder only root writes) is followed", () => {
  // this test's files belong to the user running it; a user with another uid and no write on `dir` (mode 0700)
  // could have made neither `planted` nor anything in `dir`
  const other = { uid: 4_000_001, gids: [4_000_001] };
  expect(realRecordsPath(join(planted, 'records.jsonl'), other)).toEqual({ path: join(chosen, 'records.jsonl') });
});

it('a plain folder takes records, and --print-config prints the real folder the user named', async () => {
  const sink = jsonLinesSink(join(meant, 'ok.jsonl'));
  await sink.close();
  expect(existsSync(join(meant, 'ok.jsonl'))).toBe(true);
  // the user names a folder through their own symlink while setting up: the printed command names its real path
  const named = join(dir, 'named');
  symlinkSync(meant, named);
  const run = await runCli(['hook', 'claude-code', '--print-config', '--records', join(named, 'hook.jsonl')]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(JSON.stringify(join(meant, 'hook.jsonl')).slice(1, -1));
  expect(run.stdout).not.toContain(named);
});
