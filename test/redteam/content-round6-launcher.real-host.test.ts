// Content red team round 6 for Linux desktop launchers (issue 41): key files whose `Exec` key reaches GLib past
// white space a reader of lines does not take for white space. GLib's key file reader ends a line at a line feed
// only and trims `g_ascii_isspace` (space, tab, carriage return, form feed) around a key, so
// `Exec\r=touch x` is an `Exec` key to `gio launch`, where a reader that ends lines at a carriage return sees a line
// `Exec` and a line `=touch x` (a vertical tab is no white space to GLib: `Exec\v=` is refused, so it is no case). Opened by `gio launch` itself (gio-launch.ts): an attack is live when its `Exec` line
// ran. The form feed form is withheld by the terminal consumer in the shipped profile; they are
// judged too under a profile that leaves the terminal out (`excludeConsumers: [terminal]`, a GUI-only host), where
// only the launcher reading holds them. Controls are CRLF documents in which `Exec` stands alone on its line (a
// setext heading, a key and its value on two lines): `gio launch` refuses each and the gate allows it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { parsePolicy } from '../../src/policy/load-policy.ts';
import { expectExecRan, expectRefused, gioLaunchSuite } from '../content/redteam/gio-launch.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from '../content/redteam/judge-variants.ts';

const launch = gioLaunchSuite('linkgate-gio-cr6-', 'notes');
const entry = '[Desktop Entry]\nType=Application\nName=Notes\n';

const defaultYaml = readFileSync(path.resolve(import.meta.dirname, '../../policies/default.yaml'), 'utf8');
// the shipped policy with the terminal left out of its profile: the launcher reading alone must hold these
const noTerminal = createGate(
  parsePolicy(defaultYaml.replace(/^content:\n/m, 'content:\n  excludeConsumers: [terminal]\n'), 'default.yaml'),
);

// key, name, key file (`MARK`: the marker file's path)
const attacks: [string, string, string][] = [
  ['exec-cr', 'a carriage return between Exec and its `=`', `${entry}Exec\r=touch MARK\n`],
  ['exec-cr-twice', 'two carriage returns and a space before the `=`', `${entry}Exec\r\r =touch MARK\n`],
  ['exec-tab-cr', 'a tab, a carriage return and a tab before the `=`', `${entry}Exec\t\r\t=touch MARK\n`],
  [
    'exec-cr-crlf-file',
    'a CRLF file whose Exec key has a carriage return of its own',
    `${entry}Exec\r=touch MARK\r\n`.replaceAll('e\n', 'e\r\n'),
  ],
  ['exec-ff', 'a form feed between Exec and its `=`', `${entry}Exec\f=touch MARK\n`],
];

// key, name, text: CRLF documents where `Exec` is alone on its line
const controls: [string, string, string][] = [
  [
    'crlf-setext-heading',
    'a CRLF how-to whose setext heading is `Exec`',
    '[Desktop Entry]\r\nis the group a launcher opens with.\r\n\r\nExec\r\n====\r\n\r\nThe command line the launcher runs.\r\n',
  ],
  [
    'crlf-key-then-value',
    'a CRLF note with `Exec` on one line and `=` on the next',
    '[Desktop Entry]\r\nName=Notes\r\nExec\r\n=the command line\r\n',
  ],
];

const mark = '/tmp/notes-ran';
const attackSendings = sendingsOf(
  'guide://share/notes',
  ['.desktop', '.txt', '.md', ''],
  ['text/plain', 'text/markdown', 'application/octet-stream', undefined],
);
const controlSendings = sendingsOf(
  'guide://share/notes',
  ['.txt', '.md', ''],
  ['text/plain', 'text/markdown', undefined],
);

describe('content round 6: gio launch runs each attack', () => {
  test.for(attacks.map(([key, name, body]) => ({ key, name, body })))('$key: $name', async ({ body }, ctx) => {
    await expectExecRan(await launch(ctx, body));
  });
});

describe('content round 6: the shipped profile, and the one without a terminal, withhold each launcher however it is sent', () => {
  for (const [key, name, body] of attacks)
    test(`${key}: ${name}`, { timeout: 60_000 }, async () => {
      const bytes = Buffer.from(body.replaceAll('MARK', mark));
      for (const gate of [undefined, noTerminal]) {
        const verdicts = [
          ...(await judgeSendings({ text: bytes.toString() }, attackSendings, gate)),
          ...(await judgeSendings({ blob: bytes }, attackSendings, gate)),
        ];
        expect(letThrough(verdicts)).toEqual([]);
      }
    });
});

describe('content round 6: gio launch refuses each CRLF control, the shipped profile allows it', () => {
  test.for(controls.map(([key, name, body]) => ({ key, name, body })))('$key: $name', async ({ body }, ctx) => {
    expectRefused(await launch(ctx, body));
    expect(refused(await judgeSendings({ text: body }, controlSendings))).toEqual([]);
    expect(refused(await judgeSendings({ text: body }, controlSendings, noTerminal))).toEqual([]);
  });
});
