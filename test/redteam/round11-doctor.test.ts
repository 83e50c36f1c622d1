// Red team (issue 39, hidden-style round 11), doctor: set-ups it calls gated whose gate the agent can take apart from
// inside the project. Round 9 made doctor warn when the sandbox lets the agent's shell at the hook's state folder; with
// Claude Code's sandbox on and closed (the set-up doctor then calls held), the shell may still write the project
// folder, so a hook whose `--policy` is a file in the project (the agent rewrites it to allow everything) or whose
// linkgate code is the project's own `node_modules/linkgate` (the agent rewrites the hook) gates nothing the agent
// wants through. And Codex's `project_root_markers`: Codex finds the project root by the markers the user config
// names (default `.git`); doctor looks for `.git` only, so a trusted project marked by `.hg` loads a
// `.codex/config.toml` with an ungated server that doctor does not list. Each case changes one thing of a set-up doctor
// calls gated (the control); `linkgate doctor --json` over a scratch home.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: policy in the project, hook code in the project — doctor (src/doctor/policy-status.ts, linkgate-invocation.ts:
// nothing asks whether the sandboxed shell can write the policy or the code) — owner: hook39
// key: codex root markers — doctor (src/hosts/codex-project-layers.ts looks for `.git` only) — owner: hook39
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
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

const open = new Set<string>([]);
const it = caseKeys(open);

const scratch = useScratch('linkgate-redteam-r11doctor-');

/** Doctor's report on Claude Code's hooks `hook …` (entry and policy chosen per project), the sandbox on and closed. */
async function sandboxedClaude(entryAndPolicy: (project: string) => [entry: string, policy: string]) {
  const { home, project } = scratch();
  const [entry, policy] = entryAndPolicy(project);
  const command = ['node', entry, 'hook', 'claude-code', '--policy', policy].map(shellQuote).join(' ');
  const settings = hostSettings['claude-code'](command) as Record<string, unknown>;
  const sandbox = { enabled: true, allowUnsandboxedCommands: false };
  write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox });
  write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
  return { project, report: await doctorReport(home, project) };
}

/** Whether doctor still calls `docs` gated with no warning naming `file` (a file the agent can rewrite). */
const calledHeld = (report: DoctorReport, file: string) =>
  serverStates(report).some(([, name, state]) => name === 'docs' && state === 'gated') &&
  !report.hooks.some((h) => [...h.warnings, ...h.problems].some((w) => w.includes(file)));

/** The installed package's root (holding `dist/`, `package.json`, `schemas/`). */
const packageRoot = path.resolve(path.dirname(cliEntry()), '../..');

describe('red team, doctor (round 11): the gate in a file the sandboxed agent can write', () => {
  test('control: the printed hook (code and policy outside the project), sandbox closed: gated', async () => {
    const { report } = await sandboxedClaude(() => [cliEntry(), defaultPolicy]);
    expect(serverStates(report)).toContainEqual(['claude-code', 'docs', 'gated']);
  });

  it('policy in the project')(
    "the hook's `--policy` is a file in the project: doctor does not call it gated without a word",
    async () => {
      const { project, report } = await sandboxedClaude((dir) => {
        copyFileSync(defaultPolicy, path.join(dir, 'linkgate.yaml'));
        return [cliEntry(), path.join(dir, 'linkgate.yaml')];
      });
      expect(calledHeld(report, path.join(project, 'linkgate.yaml'))).toBe(false);
    },
  );

  it('hook code in the project')(
    "the hook runs the project's own node_modules/linkgate: doctor does not call it gated without a word",
    async () => {
      const { project, report } = await sandboxedClaude((dir) => {
        const pkg = path.join(dir, 'node_modules', 'linkgate');
        mkdirSync(pkg, { recursive: true });
        // hard links: the package as `npm install` leaves it, without copying 20 MB
        execFileSync('cp', ['-al', path.join(packageRoot, 'dist'), path.join(pkg, 'dist')]);
        execFileSync('cp', ['-r', path.join(packageRoot, 'schemas'), path.join(packageRoot, 'package.json'), pkg]);
        return [path.join(pkg, path.relative(packageRoot, cliEntry())), defaultPolicy];
      });
      expect(calledHeld(report, path.join(project, 'node_modules', 'linkgate'))).toBe(false);
    },
  );
});

describe("red team, doctor (round 11): codex's project root found by other markers", () => {
  // a user config proxying `docs`, trusting `root`, with `extra` lines; the project `root` marked by `marker`, its
  // `.codex/config.toml` adding the plain server `proj`; doctor run in `root/sub`
  async function markedProject(marker: string, extra: string) {
    const { home, project: root } = scratch();
    mkdirSync(path.join(root, marker));
    mkdirSync(path.join(root, 'sub'));
    const args = proxiedServer()
      .args.map((a) => JSON.stringify(a))
      .join(', ');
    write(
      path.join(home, '.codex', 'config.toml'),
      `${extra}[mcp_servers.docs]\ncommand = "node"\nargs = [${args}]\n[projects.${JSON.stringify(root)}]\ntrust_level = "trusted"\n`,
    );
    write(path.join(root, '.codex', 'config.toml'), '[mcp_servers.proj]\ncommand = "node"\nargs = ["s.js"]\n');
    const report = await doctorReport(home, path.join(root, 'sub'));
    return serverStates(report).filter(([host]) => host === 'codex');
  }

  test('control: the root marked by `.git` (the default marker): the ungated `proj` is named', async () => {
    expect(await markedProject('.git', '')).toContainEqual(['codex', 'proj', expect.not.stringMatching(/^gated$/)]);
  });

  it('codex root markers')(
    '`project_root_markers = [".hg"]`, the root marked by `.hg`: the ungated `proj` is named',
    async () => {
      const servers = await markedProject('.hg', 'project_root_markers = [".hg"]\n');
      expect(servers).toContainEqual(['codex', 'proj', expect.not.stringMatching(/^gated$/)]);
    },
  );
});
