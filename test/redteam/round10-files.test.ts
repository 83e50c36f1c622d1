// Red team (issue 39, hidden-style round 10), agent-writable files. The gated agent's shell runs as the user, so it can
// swap what the hook writes its records to between two events, and plant files in the project that `linkgate doctor`
// reads. Cases: the records file replaced by a symlink to the hook's own stdout (`/proc/self/fd/1`: the records lines
// would land in the answer the host parses), and by a folder (a record cannot be written: the tool result is withheld
// or the failure named, never passed silently); the project's Gemini CLI env file (`.env`) made a FIFO, and a
// `package.json` beside a hook command's entry made a FIFO (doctor opens both: a FIFO with no writer blocks the open
// for ever, so doctor gives no verdict). The hook as a host runs it (its own process); doctor as its own process.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { hookArgs, hookScratch } from '../hook/hook-args.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { runHookProcess } from '../hook/hook-process.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { useScratch, write } from '../doctor/doctor-scratch.ts';
import { handed } from './round10-hosts.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: gemini env fifo — doctor (src/doctor/gemini-env-file.ts `readFileSync` of a FIFO blocks) — owner: hook39
// key: hook entry package fifo — doctor (src/doctor/linkgate-invocation.ts `readJson` of a FIFO package.json) — owner: hook39
const open = new Set<string>([]);
const it = caseKeys(open);

const metadata = 'http://169.254.169.254/latest/meta-data/';
const hooks = hookScratch('linkgate-redteam-r10files-');
const linkItem = (uri: string, name: string) => ({ type: 'resource_link', uri, name, mimeType: 'text/plain' });
const event = (uri: string, id: string) => toolReturned('fixture', 'links', [linkItem(uri, 'doc')], { toolUseId: id });
const records = () => path.join(hooks.dir, 'r.jsonl');

describe('red team, agent-writable files (round 10): the records file swapped between events', () => {
  it('records to own stdout')(
    "records symlinked to the hook's own stdout: the answer the host parses is one JSON object that refuses",
    { timeout: 60_000 },
    async () => {
      const first = await runHookProcess(hookArgs('claude-code', hooks.dir), JSON.stringify(event(metadata, 't1')));
      expect(first.code, first.stderr).toBe(0);
      rmSync(records());
      symlinkSync('/proc/self/fd/1', records());
      const run = await runHookProcess(hookArgs('claude-code', hooks.dir), JSON.stringify(event(metadata, 't2')));
      // Claude Code parses stdout as one JSON answer: anything else is shown as text and the result passes
      const answer = JSON.parse(run.stdout) as unknown;
      expect(handed(JSON.stringify(answer))).toContain('linkgate');
      expect(run.stdout).not.toContain('169.254.169.254/latest');
    },
  );

  it('records a folder')(
    'records replaced by a folder: an allowed link is withheld or the failure is named, never passed silently',
    { timeout: 60_000 },
    async () => {
      rmSync(records(), { force: true });
      mkdirSync(records());
      const run = await runHookProcess(
        hookArgs('claude-code', hooks.dir),
        JSON.stringify(event('https://example.com/docs/a.txt', 't3')),
      );
      expect(`${run.stdout}\n${run.stderr}`).toMatch(/record/i);
    },
  );

  test('control: an intact records file, an allowed link: passed, one record written', {
    timeout: 60_000,
  }, async () => {
    const run = await runHookProcess(
      hookArgs('claude-code', hooks.dir),
      JSON.stringify(event('https://example.com/docs/a.txt', 't4')),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(execFileSync('wc', ['-l', records()], { encoding: 'utf8' })).toMatch(/^[1-9]/);
  });
});

const scratch = useScratch('linkgate-redteam-r10files-doctor-');

/** `linkgate doctor --json` as its own process in `project`; killed after 30 s (a bound on a hang, not a timing). */
function doctorProcess(home: string, project: string): Promise<{ code: number | null; stdout: string }> {
  const [command, ...args] = tsServerCommand(path.resolve('src/cli/main.ts')) as [string, ...string[]];
  return new Promise((done) => {
    const child = spawn(command, [...args, 'doctor', '--json'], {
      cwd: project,
      env: { HOME: home, PATH: process.env['PATH'] ?? '', LINKGATE_CLAUDE_MANAGED_DIR: path.join(home, 'managed') },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    const ceiling = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(ceiling);
      done({ code, stdout });
    });
  });
}

/** A home whose Gemini CLI trusts every folder and runs one plain server. */
function geminiHome(): { home: string; project: string } {
  const dirs = scratch();
  write(path.join(dirs.home, '.gemini', 'settings.json'), {
    security: { folderTrust: { enabled: false } },
    mcpServers: { docs: { command: 'node', args: ['s.js'] } },
  });
  return dirs;
}

describe('red team, agent-writable files (round 10): files doctor reads, planted as FIFOs', () => {
  test('control: the project env file a plain file: doctor answers', { timeout: 90_000 }, async () => {
    const { home, project } = geminiHome();
    writeFileSync(path.join(project, '.env'), 'X=1\n');
    const run = await doctorProcess(home, project);
    expect(run.code).not.toBeNull();
    expect(run.stdout).toMatch(/^\{/);
  });

  it('gemini env fifo')('the project env file a FIFO: doctor answers with a verdict', { timeout: 90_000 }, async () => {
    const { home, project } = geminiHome();
    execFileSync('mkfifo', [path.join(project, '.env')]);
    const run = await doctorProcess(home, project);
    expect(run.code).not.toBeNull();
    expect(run.stdout).toMatch(/^\{/);
  });

  it('hook entry package fifo')(
    "a package.json beside a project hook command's entry a FIFO: doctor answers with a verdict",
    { timeout: 90_000 },
    async () => {
      const { home, project } = scratch();
      const entry = path.join(project, 'tools', 'bin', 'linkgate.js');
      write(entry, '');
      execFileSync('mkfifo', [path.join(project, 'tools', 'package.json')]);
      const command = `node ${entry} hook claude-code --policy policies/default.yaml`;
      const hook = [{ matcher: 'mcp__.*', hooks: [{ type: 'command', command }] }];
      write(path.join(project, '.claude', 'settings.json'), { hooks: { PreToolUse: hook, PostToolUse: hook } });
      write(path.join(project, '.mcp.json'), { mcpServers: { docs: { command: 'node', args: ['s.js'] } } });
      const run = await doctorProcess(home, project);
      expect(run.code).not.toBeNull();
      expect(run.stdout).toMatch(/^\{/);
    },
  );
});
