// A fresh round for Linux desktop launchers (issue 41): documents whose launcher stands in indented code under `#`
// headings. A markdown renderer shows the group as code, but GLib's key file reader (`gio launch`, a file manager)
// skips leading white space and reads `#` lines as comments, so the whole file is a launcher whatever its name and
// its `Exec` runs. Controls hold prose (or a key before any group) that GLib refuses, so nothing runs. `gio`
// (Debian's libglib2.0-bin) is the oracle, installed on demand; under CI=true a missing `gio` fails.
import { describe, expect, test } from 'vitest';
import { expectExecRan, expectRefused, gioLaunchSuite } from './gio-launch.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const launch = gioLaunchSuite('linkgate-gio-keyfile-', 'notes.md');

const launcher = (indent: string): string =>
  ['[Desktop Entry]', 'Type=Application', 'Name=Notes', 'Exec=touch MARK'].map((line) => `${indent}${line}`).join('\n');

// name, body (`MARK` is replaced by the marker file's path)
const attacks: [string, string][] = [
  ['a how-to whose launcher is an indented code block', `# Make a launcher\n\n${launcher('    ')}\n`],
  ['a launcher indented by tabs under two headings', `# Notes\n\n## Install\n\n${launcher('\t')}\n`],
  [
    'an indented launcher with CRLF lines and a heading after it',
    `# Launcher\r\n\r\n${launcher('    ').replaceAll('\n', '\r\n')}\r\n\r\n# Done\r\n`,
  ],
  [
    'an indented launcher led by an indented comment, Exec before Type',
    '# Setup\n\n    # notes launcher\n    [Desktop Entry]\n    Exec=touch MARK\n    Type=Application\n',
  ],
];

// name, body: each holds a line GLib refuses (prose, a key before any group), so nothing is launched
const controls: [string, string][] = [
  [
    'a how-to with prose and an indented launcher',
    `# Make a launcher\n\nSave this as \`notes.desktop\`:\n\n${launcher('    ')}\n`,
  ],
  ['an indented launcher under a front-matter key', `title = Notes\n\n${launcher('    ')}\n`],
];

const mark = '/tmp/notes-ran';
const sendings = sendingsOf(
  'guide://share/notes',
  ['.md', '.MD', '.txt', '.desktop', ''],
  ['text/plain', 'text/markdown', undefined],
);

describe('gio launch runs each attack, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([name, body]) => ({ name, body })))('$name', async ({ body }, ctx) => {
    await expectExecRan(await launch(ctx, body));
    expect(letThrough(await judgeSendings({ text: body.replaceAll('MARK', mark) }, sendings))).toEqual([]);
  });
});

describe('gio launch refuses each control, the shipped profile allows it when not named a launcher', () => {
  test.for(controls.map(([name, body]) => ({ name, body })))('$name', async ({ body }, ctx) => {
    expectRefused(await launch(ctx, body));
    const asDocument = sendings.filter(([uri]) => !uri.endsWith('.desktop'));
    expect(refused(await judgeSendings({ text: body.replaceAll('MARK', mark) }, asDocument))).toEqual([]);
  });
});
