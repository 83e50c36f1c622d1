// A fresh round for notebook viewers (issue 41): stylesheets a notebook's rendered page loads from elsewhere by
// itself, the load a page's css `@import` or off-origin `<link rel="stylesheet">` makes (withheld as
// content.remote-load in pages, SVG and rendered markdown since cbe5a28 and 0950047), written in an html output or a
// markdown cell. nbconvert (Debian's `jupyter-nbconvert`, installed on demand) renders each notebook and Chromium
// opens the page: an attack is live when the page asks for anything off its origin. (A `<style>` with `@import` in a
// markdown cell loads nothing in nbconvert's page; the gate withholds it as a rendered markdown page's.) Controls ask
// for nothing elsewhere and are allowed. Under CI=true a missing nbconvert or Chromium fails.
import { describe, expect, test } from 'vitest';
import { useNbconvertLoads } from '../../helpers/nbconvert-viewer.ts';
import { htmlOutput, markdownCell, notebookOf } from '../notebook-cells.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const loadsInViewer = useNbconvertLoads();
const sheet = 'https://evil.example/x.css';

const notebook = (cells: unknown[]) => JSON.stringify(notebookOf(cells));

const attacks: [string, string][] = [
  [
    'an html output linking a stylesheet elsewhere',
    notebook([htmlOutput(`<link rel="stylesheet" href="${sheet}"><p>x</p>`)]),
  ],
  ['an html output importing a stylesheet', notebook([htmlOutput(`<style>@import url(${sheet});</style><p>x</p>`)])],
  [
    'a markdown cell linking a stylesheet elsewhere',
    notebook([markdownCell(`# x\n\n<link rel="stylesheet" href="${sheet}">\n`)]),
  ],
];

const controls: [string, string][] = [
  [
    'a markdown cell showing a cdn stylesheet in a fenced block',
    notebook([markdownCell(`Add the theme:\n\n\`\`\`html\n<link rel="stylesheet" href="${sheet}">\n\`\`\`\n`)]),
  ],
  [
    'an html output styling its own table',
    notebook([htmlOutput('<style>td { color: red }</style><table><tr><td>1</td></tr></table>')]),
  ],
];

const sendings = sendingsOf(
  'guide://lab/analysis',
  ['.ipynb', '.json', ''],
  ['application/json', 'application/x-ipynb+json', 'text/plain', undefined],
);

describe('nbconvert loads a stylesheet from elsewhere for each attack, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([name, body]) => ({ name, body })))('$name', { timeout: 120_000 }, async ({ body }, ctx) => {
    expect(await loadsInViewer(ctx, body)).toContain(sheet);
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });
});

describe('nbconvert loads nothing elsewhere for each control, the shipped profile allows it however it is sent', () => {
  test.for(controls.map(([name, body]) => ({ name, body })))('$name', { timeout: 120_000 }, async ({ body }, ctx) => {
    expect(await loadsInViewer(ctx, body)).toEqual([]);
    const admitted = sendings.filter(([, type]) => type !== 'application/x-ipynb+json');
    expect(refused(await judgeSendings({ text: body }, admitted))).toEqual([]);
  });
});
