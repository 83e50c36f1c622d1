// Red team (issue 41, hidden-style round 9), content rounds 3–8 did not send, and ordinary files that must stay
// allowed. A Linux launcher with CRLF line ends (GLib's key-file reader takes them;
// `gio launch` the oracle, as round 8), a Windows `.url` shortcut whose section and keys are lower case (Windows reads
// INI names without case), and a markdown link whose scheme is spelled with a character reference (CommonMark decodes
// references in a link destination: commonmark.js writes the `href` as `javascript:`). Controls (issue 41 item 5): a
// how-to that shows a launcher inside a fenced code block, a Python file whose docstring holds `<script>`, an INI file
// with a lower-case `[internetshortcut]`-like section that is not one (`[settings]` with `url=`). Each judged under every
// sending a server would use (the shipped profile).
import { Parser, HtmlRenderer } from 'commonmark';
import { describe, expect, test } from 'vitest';
import { expectExecRan, gioLaunchSuite } from '../content/redteam/gio-launch.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from '../content/redteam/judge-variants.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const launch = gioLaunchSuite('linkgate-redteam-r9content-', 'notes.desktop');
const launcherSendings = sendingsOf('guide://share/notes', ['.desktop', '.txt', ''], ['text/plain', undefined]);
const mark = '/tmp/r9-notes-ran';

const launchers: [string, string][] = [
  ['launcher crlf', '[Desktop Entry]\r\nType=Application\r\nName=Notes\r\nExec=touch MARK\r\n'],
];

describe('red team, content (round 9): launchers as GLib reads them', () => {
  for (const [label, body] of launchers)
    it(label)(`${label}: gio launch runs it, the shipped profile withholds it however it is sent`, async (ctx) => {
      await expectExecRan(await launch(ctx, body));
      expect(letThrough(await judgeSendings({ text: body.replaceAll('MARK', mark) }, launcherSendings))).toEqual([]);
    });
});

const entityScheme = '# Notes\n\nSee [the guide](jav&#x61;script&#x3a;alert(document.domain)) first.\n';

describe('red team, content (round 9): shortcuts and markdown', () => {
  it('url shortcut lower case')('a `.url` shortcut in lower case is withheld however it is sent', async () => {
    const body = '[internetshortcut]\r\nurl=file:///C:/Windows/System32/calc.exe\r\n';
    const sendings = sendingsOf('guide://share/open', ['.url', '.txt', ''], ['text/plain', undefined]);
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });

  test('control: commonmark.js renders the referenced scheme as a javascript: href', () => {
    const html = new HtmlRenderer({ safe: false }).render(new Parser().parse(entityScheme));
    expect(html).toContain('href="javascript:alert(document.domain)"');
  });

  it('markdown scheme by reference')('a markdown link whose scheme is a character reference is withheld', async () => {
    const sendings: Sending[] = [
      ['file:///d/notes.md', 'text/markdown'],
      ['file:///d/notes.md', 'text/plain'],
    ];
    expect(letThrough(await judgeSendings({ text: entityScheme }, sendings))).toEqual([]);
  });
});

const ordinary: [string, string, Sending[]][] = [
  [
    'launcher how-to',
    '# Add a launcher\n\nSave this as `~/.local/share/applications/notes.desktop`:\n\n```ini\n[Desktop Entry]\nType=Application\nName=Notes\nExec=notes %U\n```\n',
    [
      ['file:///d/launcher.md', 'text/markdown'],
      ['file:///d/launcher.md', 'text/plain'],
    ],
  ],
  [
    'python docstring',
    'def embed():\n    """Returns the snippet: <script src="/static/app.js"></script>."""\n    return "<script src=\\"/static/app.js\\"></script>"\n',
    [
      ['file:///d/embed.py', 'text/plain'],
      ['file:///d/embed.py', undefined],
    ],
  ],
  [
    'ini with url key',
    '[settings]\nurl=https://example.org/api\ntimeout=30\n',
    [
      ['file:///d/app.ini', 'text/plain'],
      ['file:///d/app.ini', undefined],
    ],
  ],
];

describe('red team, content (round 9): ordinary files are not blocked', () => {
  for (const [label, text, sendings] of ordinary)
    it(label)(`an ordinary ${label} file is allowed`, async () => {
      expect(refused(await judgeSendings({ text }, sendings))).toEqual([]);
    });
});
