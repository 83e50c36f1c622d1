// The launcher consumer against GLib itself (issue 41 item 6): `gio launch` (Debian's libglib2.0-bin, installed on
// demand) opens each body as a file manager would. An attack is shown active by the oracle (its `Exec` line ran and
// wrote a marker file, whatever the file's name) and withheld by the gate's launcher adapter; a benign control is
// refused by `gio launch` (nothing runs) and allowed. Under CI=true a missing `gio` fails the suite.
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../../src/gate/create-gate.ts';
import { parsePolicy } from '../../../src/policy/load-policy.ts';
import { waitUntil } from '../../helpers/wait-until.ts';
import { realHostSuite } from '../../real-host/host-suite.ts';
import { aptOracle, runOracle } from './apt-oracle.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const defaultYaml = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
// the launcher adapter alone, so each deny is its own; the controls under the default profile
const launcherOnly = createGate(
  parsePolicy(defaultYaml.replace(/^content:\n/m, 'content:\n  consumers: [launcher]\n'), 'launcher.yaml'),
);
const defaults = createGate(parsePolicy(defaultYaml, 'default.yaml'));

const suite = realHostSuite('gio launch', () => aptOracle('libglib2.0-bin', '/usr/bin/gio'));

// name, file name, body (`MARK` is replaced by the marker file's path)
const attacks: [string, string, string][] = [
  ['a launcher sent as text', 'notes', '[Desktop Entry]\nType=Application\nName=Notes\nExec=touch MARK\n'],
  ['a launcher named .txt', 'notes.txt', '[Desktop Entry]\nType=Application\nName=Notes\nExec=touch MARK\n'],
  [
    'a launcher behind comments and blank lines',
    'readme',
    '# just notes\n\n# more notes\n[Desktop Entry]\nType=Application\nName=Notes\nExec=touch MARK\n',
  ],
  ['a launcher with its group indented', 'notes', '  [Desktop Entry]\nType=Application\nName=Notes\nExec=touch MARK\n'],
  ['a launcher without a name', 'x', '[Desktop Entry]\nType=Application\nExec=touch MARK\n'],
];

const controls: [string, string, string][] = [
  // (a `Type=Link` entry is no control: gio refuses it, but a file manager opens its `URL`; desktop-link.real-host.test.ts)
  ['a directory entry (no Exec)', 'site.desktop', '[Desktop Entry]\nType=Directory\nName=Site\nIcon=folder\n'],
  ['an ini file with an Exec key in another group', 'tool.ini', '[Tool]\nName=x\nExec=touch MARK\n'],
  ['an entry without Exec', 'app.desktop', '[Desktop Entry]\nType=Application\nName=App\n'],
];

async function decide(gate: ReturnType<typeof createGate>, name: string, text: string) {
  const uri = `guide://share/${name}`;
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name, mimeType: 'text/plain' },
    result: { resultType: 'complete', contents: [{ uri, mimeType: 'text/plain', text }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}

async function launch(gio: string, name: string, body: string): Promise<{ code: number; mark: string }> {
  const dir = await suite.scratch('linkgate-gio-');
  const mark = path.join(dir, 'ran');
  const file = path.join(dir, name);
  await writeFile(file, body.replaceAll('MARK', mark));
  const out = await runOracle(gio, ['launch', file], { cwd: dir, env: { ...process.env, HOME: dir } });
  return { code: out.code, mark };
}

describe('gio launch runs each attack, the gate withholds it', () => {
  test.for(attacks)('%s', async ([, name, body], ctx) => {
    const gio = suite.require(ctx);
    const run = await launch(gio, name, body);
    expect(run.code).toBe(0);
    // the launched command runs after gio returns: wait for its marker file
    await waitUntil('the Exec line ran', () => (existsSync(run.mark) ? true : undefined));
    const verdict = await decide(launcherOnly, name, body);
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/desktop launcher/);
  });
});

describe('gio launch refuses each control, the gate allows it', () => {
  test.for(controls)('%s', async ([, name, body], ctx) => {
    const gio = suite.require(ctx);
    const run = await launch(gio, name, body);
    expect(run.code).not.toBe(0);
    expect(existsSync(run.mark)).toBe(false);
    expect(await decide(defaults, name, body)).toEqual({ effect: 'allow', why: '' });
  });
});
