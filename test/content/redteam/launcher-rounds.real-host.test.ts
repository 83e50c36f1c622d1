// Hidden round 5 rebuilt for Linux desktop launchers (issue 41): launchers a red team sends as text, each opened by
// GLib itself (`gio launch`, Debian's libglib2.0-bin, installed on demand) as a file manager would; an attack is
// live when its `Exec` line ran (a marker file appears), and is withheld by the shipped profile under every plausible
// sending (text/plain, text/markdown, octet-stream, none; `.desktop`, `.DESKTOP`, `.txt`, `.md`, no extension).
// Controls are refused by `gio launch` (nothing runs) and allowed. Variations: CRLF, a BOM, spaced keys, escapes,
// duplicate groups, `[Desktop Action …]` groups, `Type=Directory`, launchers shown in fenced code. Under CI=true a
// missing `gio` fails.
import { describe, expect, test } from 'vitest';
import { expectExecRan, expectRefused, gioLaunchSuite } from './gio-launch.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const launch = gioLaunchSuite('linkgate-gio-red-', 'notes');

const entry = '[Desktop Entry]\nType=Application\nName=Notes\n';
// name, body (`MARK` is replaced by the marker file's path)
const attacks: [string, string][] = [
  ['a launcher with CRLF lines', `${entry}Exec=touch MARK\n`.replaceAll('\n', '\r\n')],
  ['a launcher with spaces around its keys', '[Desktop Entry]\nType = Application\nName = Notes\nExec = touch MARK\n'],
  ['a launcher whose Exec is written with an escape', `${entry}Exec=touch\\sMARK\n`],
  ['a launcher running a shell', `${entry}Exec=sh -c "touch MARK"\n`],
  [
    'a launcher with desktop actions',
    `${entry}Exec=touch MARK\nActions=Open;\n\n[Desktop Action Open]\nName=Open\nExec=touch MARK\n`,
  ],
  ['a hidden launcher', `${entry}NoDisplay=true\nHidden=false\nTerminal=false\nExec=touch MARK\n`],
  [
    'a launcher behind localized keys and comments',
    '[Desktop Entry]\n# generated\nName[de]=Notizen\nName=Notes\nComment=notes\nType=Application\nExec=touch MARK\n',
  ],
  ['a launcher after 4 KiB of comments', `${'# release notes for the team\n'.repeat(150)}${entry}Exec=touch MARK\n`],
  ['a launcher with TryExec', `${entry}TryExec=touch\nExec=touch MARK\n`],
];

// name, body, and whether it is sent under a `.desktop` name too (a how-to is a markdown page: named `.desktop`,
// lenient launchers such as KDE's skip its fence lines and run the Exec they show, so the gate's deny there stands)
const controls: [string, string, boolean?][] = [
  // (a `Type=Link` entry is no control: gio refuses it, but a file manager opens its `URL`, and the gate withholds it)
  ['a directory entry', '[Desktop Entry]\r\nType=Directory\r\nName=Site\r\nIcon=folder\r\n'],
  [
    'a how-to showing a .url shortcut in a fenced code block',
    '# Shortcuts\n\nSave this as `site.url`:\n\n```ini\n[InternetShortcut]\nURL=https://example.com/\n```\n',
  ],
  [
    'a how-to showing a launcher in a fenced code block',
    '# Make a launcher\n\nSave this as `notes.desktop`:\n\n```ini\n[Desktop Entry]\nType=Application\nName=Notes\nExec=notes %f\n```\n',
    false,
  ],
  ['a launcher with its Exec commented out', `${entry}# Exec=touch MARK\n`],
  ['an ini file with a look-alike group', '[Desktop Entry Extra]\nType=Application\nExec=touch MARK\n'],
];

const mark = '/tmp/notes-ran';
const attackSendings = sendingsOf(
  'guide://share/notes',
  ['.desktop', '.DESKTOP', '.txt', '.md', ''],
  ['text/plain', 'text/markdown', 'application/octet-stream', 'application/x-desktop', undefined],
);
// a control is sent only as types default.yaml admits (the others are refused by type, whatever the body)
const controlSendings = sendingsOf(
  'guide://share/notes',
  ['.desktop', '.txt', '.md', ''],
  ['text/plain', 'text/markdown', undefined],
);

describe('gio launch runs each attack, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([name, body]) => ({ name, body })))('$name', async ({ body }, ctx) => {
    await expectExecRan(await launch(ctx, body));
    const verdicts = await judgeSendings({ text: body.replaceAll('MARK', mark) }, attackSendings);
    expect(letThrough(verdicts)).toEqual([]);
  });
});

describe('gio launch refuses each control, the shipped profile allows it however it is sent', () => {
  test.for(controls.map(([name, body, asDesktop]) => ({ name, body, asDesktop })))(
    '$name',
    async ({ body, asDesktop }, ctx) => {
      expectRefused(await launch(ctx, body));
      const sendings =
        asDesktop === false ? controlSendings.filter(([uri]) => !uri.endsWith('.desktop')) : controlSendings;
      expect(refused(await judgeSendings({ text: body.replaceAll('MARK', mark) }, sendings))).toEqual([]);
    },
  );
});
