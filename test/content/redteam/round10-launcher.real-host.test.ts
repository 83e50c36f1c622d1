// Red team round 10 for Linux desktop launchers (issue 41): key files GLib reads by its own lexical rules, opened by
// `gio launch` itself (Debian's libglib2.0-bin, installed on demand): a group header followed by white space, keys
// with tabs around `=`. An attack is live when its `Exec` line ran (a marker file appears) and is withheld by the
// shipped profile under every plausible sending. Controls are ordinary ini files an agent reads (a setuptools
// `setup.cfg` with entry points, an XDG `mimeapps.list`): `gio launch` refuses them and the gate allows them. (A
// `[Desktop Entry]` after a UTF-8 BOM was tried: GLib refuses the file, so it is no case.) A case that gets through
// is a `test.fails` named in `open` (the round's findings in its session's closing note). Under CI=true a missing `gio` fails.
import { describe, expect, test } from 'vitest';
import { expectExecRan, expectRefused, gioLaunchSuite } from './gio-launch.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const launch = gioLaunchSuite('linkgate-gio-r10-', 'notes');
const mark = '/tmp/notes-ran';

const attacks: [string, string, string][] = [
  [
    'launcher-header-trailing-space',
    'a group header followed by spaces',
    '[Desktop Entry]   \nType=Application\nName=Notes\nExec=touch MARK\n',
  ],
  [
    'launcher-tab-keys',
    'keys with tabs around =',
    '[Desktop Entry]\nType\t=\tApplication\nName=Notes\nExec\t=touch MARK\n',
  ],
];

const controls: [string, string, string][] = [
  [
    'ini-setup-cfg',
    'a setuptools setup.cfg with console entry points',
    '[metadata]\nname = notes\nversion = 1.2.0\n\n[options.entry_points]\nconsole_scripts =\n    notes = notes.cli:main\n',
  ],
  [
    'ini-mimeapps',
    'an XDG mimeapps.list',
    '[Default Applications]\ntext/html=firefox.desktop\napplication/pdf=org.gnome.Evince.desktop\n\n[Added Associations]\ntext/plain=org.gnome.TextEditor.desktop;\n',
  ],
];

/** Cases that get through at the time of writing (named in the round's findings in its session's closing note). */
const open = new Set<string>([]);

const attackSendings = sendingsOf(
  'guide://share/notes',
  ['.desktop', '.txt', '.md', ''],
  ['text/plain', 'text/markdown', 'application/octet-stream', undefined],
);
const controlSendings = sendingsOf('guide://share/config', ['.cfg', '.list', '.txt', ''], ['text/plain', undefined]);

describe('round 10: gio launch runs each attack', () => {
  test.for(attacks.map(([key, name, body]) => ({ key, name, body })))('$key: $name', async ({ body }, ctx) => {
    await expectExecRan(await launch(ctx, body));
  });
});

describe('round 10: the shipped profile withholds each attack however it is sent', () => {
  for (const [key, name, body] of attacks)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async () => {
      expect(letThrough(await judgeSendings({ text: body.replaceAll('MARK', mark) }, attackSendings))).toEqual([]);
    });
});

describe('round 10: gio launch refuses each control, the shipped profile allows it', () => {
  test.for(controls.map(([key, name, body]) => ({ key, name, body })))('$key: $name', async ({ body }, ctx) => {
    expectRefused(await launch(ctx, body));
    expect(refused(await judgeSendings({ text: body }, controlSendings))).toEqual([]);
  });
});
