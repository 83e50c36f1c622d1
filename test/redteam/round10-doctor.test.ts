// Red team (issue 39, hidden-style round 10), doctor: Codex's system layers. Codex 0.171 (codex-rs
// `config_loader/layer_io.rs`) reads `/etc/codex/config.toml` below the user's config and
// `/etc/codex/managed_config.toml` above it (an administrator's, or anyone with root on a shared box, or a set-up
// script the agent ran with sudo): a server there runs in every session. Doctor reads neither, so a user whose own
// server entry goes through `linkgate proxy` is told it is gated while Codex starts an ungated server the system
// config adds, or runs the managed config's entry for the same name (the managed layer replaces the user's command).
// Run as the real `linkgate doctor --json` in a private mount namespace whose /etc is an overlay (nothing written to
// the machine's /etc); needs `unshare` and overlayfs (root): under CI=true a missing one fails.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { defaultPolicy, useScratch, write } from '../doctor/doctor-scratch.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: codex system config server, codex managed config replaces, codex system trusts a project — doctor
// (src/doctor/codex-config.ts reads $CODEX_HOME/config.toml and trusted projects only) — owner: hook39
const open = new Set<string>([]);
const it = caseKeys(open);

const scratch = useScratch('linkgate-redteam-r10doctor-');
const toml = (s: string) => JSON.stringify(s);
const proxied = `[mcp_servers.docs]\ncommand = "node"\nargs = [${[cliEntry(), 'proxy', '--policy', defaultPolicy, '--', 'node', 's.js'].map(toml).join(', ')}]\n`;
const plain = (name: string) => `[mcp_servers.${name}]\ncommand = "node"\nargs = ["s.js"]\n`;

/** Whether this machine can give a test a private /etc (root, `unshare -m`, overlayfs). */
const privateEtc = (() => {
  const probe = spawnSync('unshare', ['-m', '--propagation', 'private', 'true'], { encoding: 'utf8' });
  return probe.status === 0;
})();
if (!privateEtc && process.env['CI'] === 'true') throw new Error('round10-doctor needs `unshare -m` (root) under CI');
const maybe = privateEtc ? describe : describe.skip;

/** `linkgate doctor --json` over `home` with `etc` (file → text) written into a private overlay of /etc. */
function doctorWith(
  etc: Record<string, string>,
  projectFiles: Record<string, string> = {},
): { servers: { host: string; name: string; state: string }[] } {
  const { home, project } = scratch();
  write(path.join(home, '.codex', 'config.toml'), proxied);
  for (const [file, text] of Object.entries(projectFiles)) write(path.join(project, file), text);
  const etcText = Object.fromEntries(Object.entries(etc).map(([f, t]) => [f, t.replaceAll('<project>', project)]));
  const upper = path.join(home, 'etc-upper');
  const work = path.join(home, 'etc-work');
  const files = path.join(home, 'etc-files');
  write(path.join(upper, '.keep'), '');
  write(path.join(work, '.keep'), '');
  const copies = Object.entries(etcText).map(([file, text], i) => {
    const source = path.join(files, String(i));
    write(source, text);
    return `mkdir -p ${path.dirname(file)} && cp ${source} ${file}`;
  });
  const script = [
    `mount -t overlay overlay -o lowerdir=/etc,upperdir=${upper},workdir=${work} /etc`,
    ...copies,
    `exec ${[...tsServerCommand(path.resolve('src/cli/main.ts')), 'doctor', '--json'].map((w) => `'${w}'`).join(' ')}`,
  ].join(' && ');
  const run = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], {
    cwd: project,
    encoding: 'utf8',
    env: { HOME: home, PATH: process.env['PATH'] ?? '', LINKGATE_CLAUDE_MANAGED_DIR: path.join(home, 'managed') },
  });
  writeFileSync(path.join(home, 'doctor.out'), run.stdout);
  expect(run.stdout, run.stderr).toMatch(/^\{/);
  return JSON.parse(run.stdout) as { servers: { host: string; name: string; state: string }[] };
}
const codexServers = (report: ReturnType<typeof doctorWith>) =>
  report.servers.filter((s) => s.host === 'codex').map((s) => [s.name, s.state]);

maybe('red team, doctor (round 10): Codex system and managed config', () => {
  test('control: the user config alone, its server proxied: gated', () => {
    expect(codexServers(doctorWith({}))).toEqual([['docs', 'gated']]);
  });

  it('codex system config server')(
    '/etc/codex/config.toml adds an ungated server: doctor names it and does not say all is gated',
    () => {
      const servers = codexServers(doctorWith({ '/etc/codex/config.toml': plain('sys') }));
      expect(servers).toContainEqual(['sys', expect.not.stringMatching(/^gated$/)]);
    },
  );

  it('codex managed config replaces')(
    "/etc/codex/managed_config.toml replaces the user's proxied entry: doctor does not call it gated",
    () => {
      const servers = codexServers(doctorWith({ '/etc/codex/managed_config.toml': plain('docs') }));
      expect(servers).not.toContainEqual(['docs', 'gated']);
    },
  );

  it('codex system trusts a project')(
    "/etc/codex/config.toml trusts the project: its .codex/config.toml's ungated server is named",
    () => {
      const trust = '[projects."<project>"]\ntrust_level = "trusted"\n';
      const servers = codexServers(
        doctorWith({ '/etc/codex/config.toml': trust }, { '.codex/config.toml': plain('proj') }),
      );
      expect(servers).toContainEqual(['proj', expect.not.stringMatching(/^gated$/)]);
    },
  );

  test('control: the same project trusted nowhere: codex loads no project layer, nothing more is named', () => {
    const servers = codexServers(doctorWith({}, { '.codex/config.toml': plain('proj') }));
    // untrusted: codex loads no project layer, so nothing more is named
    expect(servers).toEqual([['docs', 'gated']]);
  });
});
