// Red team (issue 39, hidden-style round 7), agent-writable files: a records path that is the hook's own answer stream
// (`/dev/stdout`, `/proc/self/fd/1`: a record written there would put a line before the answer, which Claude Code then
// cannot read as JSON and lets the call go) or a device (`/dev/null`: every record lost); the proxy's records under a
// folder the agent replaced by a symlink (an ancestor, not the file). Each must refuse (the hook exits 2, which Claude
// Code's `onFailure: "block"` and its deny exit code both block on; the proxy does not start), never answer with a
// record in its stream.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { hookArgs } from '../hook/hook-args.ts';
import { readRequested } from '../hook/hook-events.ts';
import { closeAll, metadata, policyFile, scratch } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

describe('red team, agent-writable files (round 7): the hook records into its own stream or a device', () => {
  for (const records of ['/dev/stdout', '/proc/self/fd/1', '/dev/null'])
    it(records)(`the hook's --records is ${records}: no record in its answer, the read refused`, async () => {
      const dir = await scratch();
      // its own process: its stdout is what Claude Code reads
      const args = [cliEntry(), ...hookArgs('claude-code', dir).slice(0, -2), '--records', records];
      const run = spawnSync(process.execPath, args, {
        input: JSON.stringify(readRequested('docs', metadata)),
        encoding: 'utf8',
        timeout: 30_000,
      });
      // a refusal: the deny answer alone, or exit 2 with nothing on stdout, saying why
      if (run.status === 0) expect(Object.keys(JSON.parse(run.stdout) as object)).toEqual(['hookSpecificOutput']);
      else expect([run.status, run.stdout, run.stderr.includes(`records file \`${records}\``)]).toEqual([2, '', true]);
      expect(run.stdout).not.toContain('"verdict"');
    });
});

describe('red team, agent-writable files (round 7): the proxy records under a symlinked folder', () => {
  it('proxy records ancestor')(
    "the proxy's --records is in a folder the agent replaced by a symlink: it does not start, nothing written",
    async () => {
      const dir = await scratch();
      mkdirSync(path.join(dir, 'elsewhere'));
      symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'logs'));
      const records = path.join(dir, 'logs', 'records.jsonl');
      const child = spawn(
        process.execPath,
        [cliEntry(), 'proxy', '--policy', policyFile, '--records', records, '--', 'node', '-e', ''],
        { stdio: ['pipe', 'ignore', 'pipe'] },
      );
      const stderr: Buffer[] = [];
      child.stderr.on('data', (c: Buffer) => stderr.push(c));
      await new Promise((resolve) => child.on('exit', resolve));
      expect(Buffer.concat(stderr).toString()).toContain('cannot write records');
      expect(readdirSync(path.join(dir, 'elsewhere'))).toEqual([]);
    },
  );
});
