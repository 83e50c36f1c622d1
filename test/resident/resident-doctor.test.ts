// `linkgate doctor` checks a resident hook in Claude Code's settings against its conditions and says plainly which do
// not hold (docs/resident-hook.md): run here against probes, and as the gated user against the real server.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ResidentProbe, residentHookProblems } from '../../src/resident/resident-doctor.ts';
import { residentHandler } from '../../src/resident/resident-setup.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { asGatedUid, canStartAsRoot, freePrivilegedPort, gatedUid, startResidentProcess } from './resident-process.ts';

const probe = (over: Partial<ResidentProbe> = {}): ResidentProbe => ({
  gatedUid,
  portStart: () => 1024,
  // a server started as root that became its service user: the socket is root's
  listener: () => 0,
  ...over,
});
const hooksWith = (handler: Record<string, unknown>) => ({
  PreToolUse: [{ matcher: 'ReadMcpResourceTool|WebFetch', hooks: [handler] }],
});

describe('the resident hook in doctor', () => {
  it('says nothing of the printed hook where every condition holds', () => {
    expect(residentHookProblems('settings.json', hooksWith(residentHandler(873)), probe())).toEqual([]);
  });

  it('names each condition that does not hold', () => {
    const printed = residentHandler(873);
    const cases: [Record<string, unknown>, Partial<ResidentProbe>, RegExp][] = [
      [residentHandler(8089), {}, /port 8089 is not below .* the gated user could bind it/],
      [printed, { portStart: () => 0 }, /not below `net.ipv4.ip_unprivileged_port_start` \(0\)/],
      [printed, { listener: () => gatedUid }, /port 873 is held by the gated user/],
      [printed, { listener: () => undefined }, /nothing listens on port 873: every read is refused/],
      [printed, { gatedUid: 0 }, /the gated user is root/],
      [{ ...printed, onFailure: 'continue' }, {}, /no `"onFailure": "block"`/],
      [{ ...printed, async: true }, {}, /runs in the background/],
      [{ ...printed, headers: {} }, {}, /no `X-Linkgate-Secret` header/],
      [{ ...printed, allowedEnvVars: [] }, {}, /`\$LINKGATE_RESIDENT_SECRET` is not in `allowedEnvVars`/],
      [{ ...printed, url: 'http://localhost:873/claude-code' }, {}, /listens on `http:\/\/127.0.0.1` only/],
    ];
    for (const [handler, over, line] of cases) {
      const found = residentHookProblems('settings.json', hooksWith(handler), probe(over));
      expect(found.join('\n')).toMatch(line);
      expect(found[0]).toMatch(
        /^`settings.json`: the PreToolUse http hook `http:\/\/[^`]+` is not as safe as the command hook: /,
      );
    }
    // another http hook is not linkgate's to judge
    expect(residentHookProblems('s', hooksWith({ type: 'http', url: 'http://127.0.0.1:8080/other' }), probe())).toEqual(
      [],
    );
  });
});

describe.runIf(canStartAsRoot || process.env['CI'] === 'true')(
  'doctor, as the gated user, against the real server',
  () => {
    const dirs: string[] = [];
    afterAll(async () => {
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    const doctorAsGated = async (home: string): Promise<string[]> => {
      const run = spawnSync(
        'setpriv',
        [
          ...asGatedUid(),
          process.execPath,
          '--import',
          'tsx',
          'src/cli/main.ts',
          'doctor',
          '--json',
          '--no-start',
          '--project',
          home,
        ],
        { cwd: repoRoot, encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: home } },
      );
      const out = run.stdout;
      if (!out.trimStart().startsWith('{')) throw new Error(`doctor printed no report: ${run.stderr}`);
      // the http hook before a read is a hook of its own (its conditions are its problems); the one after a tool ran
      // is said among the report's problems
      const report = JSON.parse(out) as { problems: string[]; hooks: { problems: string[] }[] };
      return [...report.problems, ...report.hooks.flatMap((h) => h.problems)].filter((p) => p.includes('http hook'));
    };

    it('finds the conditions holding while the server runs, and says when it does not', {
      timeout: 120_000,
    }, async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-resident-doctor-'));
      dirs.push(dir);
      await chmod(dir, 0o755);
      const port = await freePrivilegedPort();
      const server = await startResidentProcess(port, dir);
      const home = path.join(dir, 'home');
      await mkdir(path.join(home, '.claude'), { recursive: true });
      await writeFile(
        path.join(home, '.claude', 'settings.json'),
        JSON.stringify({ hooks: hooksWith(residentHandler(port)) }),
      );
      execFileSync('chown', ['-R', `${gatedUid}:${gatedUid}`, home]);
      try {
        expect(await doctorAsGated(home)).toEqual([]);
      } finally {
        await server.stop();
      }
      const down = await doctorAsGated(home);
      expect(down.join('\n')).toMatch(`nothing listens on port ${port}`);
    });
  },
);
