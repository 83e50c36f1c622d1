// Red team (issue 39, hidden-style round 12), doctor: set-ups it calls gated whose policy or code the sandboxed agent
// can rewrite from inside the project, by ways round 11's check (`src/doctor/in-project.ts`: is the path, as written,
// inside the project folder) does not see. The hook's `--policy` is a symlink outside the project to a file inside
// it, or lies in a folder outside that is a symlink into the project; the hook's linkgate package outside the project
// is a symlink to the project's own `node_modules/linkgate` (what `npm link` leaves); and a server proxied through
// `linkgate proxy` whose `--policy` is a file in the project (the proxy reloads a changed policy, and the agent's shell
// may write the project). Each case changes one thing of a set-up doctor calls gated (the control), with Claude Code's
// sandbox on and closed; `linkgate doctor --json` over a scratch home.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: policy symlink into project, policy folder symlink into project, hook code symlink into project — doctor
// (src/doctor/in-project.ts compares the path as written, never its real path) — owner: doctor39
// key: proxy policy in project — doctor (the in-project check runs for hooks only, src/doctor/run-doctor.ts) — owner:
// doctor39
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import {
  defaultPolicy,
  doctorReport,
  plainServer,
  proxiedServer,
  serverStates,
  useScratch,
  write,
} from '../doctor/doctor-scratch.ts';
import { caseKeys } from './round-cases.ts';

// every key held since doctor39's 71ac92f (paths followed through symbolic links, proxies judged)
const open = new Set<string>([]);
const it = caseKeys(open);

const scratch = useScratch('linkgate-redteam-r12doctor-');
/** The installed package's root (holding `dist/`, `package.json`, `schemas/`). */
const packageRoot = path.resolve(path.dirname(cliEntry()), '../..');
const sandbox = { enabled: true, allowUnsandboxedCommands: false };

/** Doctor's report on Claude Code's hooks `node ENTRY hook claude-code --policy POLICY` (each chosen per scratch). */
async function sandboxedClaude(entryAndPolicy: (project: string, home: string) => [entry: string, policy: string]) {
  const { home, project } = scratch();
  const [entry, policy] = entryAndPolicy(project, home);
  const command = ['node', entry, 'hook', 'claude-code', '--policy', policy].map(shellQuote).join(' ');
  const settings = hostSettings['claude-code'](command) as Record<string, unknown>;
  write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox });
  write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
  return { project, report: await doctorReport(home, project) };
}

/** Whether doctor still calls `docs` gated with no warning or problem naming the project folder. */
const calledHeld = (report: DoctorReport, project: string) =>
  serverStates(report).some(([, name, state]) => name === 'docs' && state === 'gated') &&
  ![...report.hooks.flatMap((h) => [...h.warnings, ...h.problems]), ...JSON.stringify(report.servers)].some(
    (w) => typeof w === 'string' && w.includes(project),
  );

describe('red team, doctor (round 12): a hook whose policy or code is reached through a symlink', () => {
  test('control: the printed hook (code and policy outside the project), sandbox closed: gated', async () => {
    const { report, project } = await sandboxedClaude(() => [cliEntry(), defaultPolicy]);
    expect(calledHeld(report, project)).toBe(true);
  });

  it('policy symlink into project')(
    "the hook's `--policy` outside the project is a symlink to the project's file: not called gated without a word",
    async () => {
      const { project, report } = await sandboxedClaude((dir, home) => {
        copyFileSync(defaultPolicy, path.join(dir, 'linkgate.yaml'));
        mkdirSync(path.join(home, 'policies'));
        symlinkSync(path.join(dir, 'linkgate.yaml'), path.join(home, 'policies', 'linkgate.yaml'));
        return [cliEntry(), path.join(home, 'policies', 'linkgate.yaml')];
      });
      expect(calledHeld(report, project)).toBe(false);
    },
  );

  it('policy folder symlink into project')(
    "the hook's `--policy` lies in a folder that is a symlink into the project: not called gated without a word",
    async () => {
      const { project, report } = await sandboxedClaude((dir, home) => {
        mkdirSync(path.join(dir, '.linkgate'));
        copyFileSync(defaultPolicy, path.join(dir, '.linkgate', 'policy.yaml'));
        symlinkSync(path.join(dir, '.linkgate'), path.join(home, 'policies'));
        return [cliEntry(), path.join(home, 'policies', 'policy.yaml')];
      });
      expect(calledHeld(report, project)).toBe(false);
    },
  );

  it('hook code symlink into project')(
    "the hook's linkgate package outside the project links to the project's node_modules/linkgate: not called gated without a word",
    async () => {
      const { project, report } = await sandboxedClaude((dir, home) => {
        const pkg = path.join(dir, 'node_modules', 'linkgate');
        mkdirSync(pkg, { recursive: true });
        // symlinks into the installed package: the package as `npm link` leaves it, without copying 20 MB
        for (const part of ['dist', 'schemas', 'package.json'])
          symlinkSync(path.join(packageRoot, part), path.join(pkg, part));
        mkdirSync(path.join(home, 'lib'));
        symlinkSync(pkg, path.join(home, 'lib', 'linkgate'));
        return [path.join(home, 'lib', 'linkgate', path.relative(packageRoot, cliEntry())), defaultPolicy];
      });
      expect(calledHeld(report, project)).toBe(false);
    },
  );
});

describe('red team, doctor (round 12): a proxy whose policy lies in the project', () => {
  /** Doctor's report on Claude Code (sandbox closed) with `docs` proxied under the policy `policy` (chosen per scratch). */
  async function proxiedClaude(policyOf: (project: string) => string) {
    const { home, project } = scratch();
    const server = proxiedServer();
    const args = server.args.map((a) => (a === defaultPolicy ? policyOf(project) : a));
    write(path.join(home, '.claude', 'settings.json'), { sandbox });
    write(path.join(home, '.claude.json'), { mcpServers: { docs: { ...server, args } } });
    return { project, report: await doctorReport(home, project) };
  }
  const servers = (report: DoctorReport) => JSON.stringify(report.servers);

  test('control: the proxy over the default policy outside the project: gated', async () => {
    const { report } = await proxiedClaude(() => defaultPolicy);
    expect(serverStates(report)).toContainEqual(['claude-code', 'docs', 'gated']);
  });

  it('proxy policy in project')(
    "the proxy's `--policy` is a file in the project: not called gated without a word",
    async () => {
      const { project, report } = await proxiedClaude((dir) => {
        copyFileSync(defaultPolicy, path.join(dir, 'linkgate.yaml'));
        return path.join(dir, 'linkgate.yaml');
      });
      const held =
        serverStates(report).some(([, name, state]) => name === 'docs' && state === 'gated') &&
        !servers(report).includes(`${project}/linkgate.yaml\` lies`) &&
        !servers(report).includes('project folder');
      expect(held).toBe(false);
    },
  );
});
