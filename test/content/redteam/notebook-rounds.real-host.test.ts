// Hidden round 5 rebuilt for notebook viewers (issue 41): notebooks a red team sends as JSON, text or bytes, each
// rendered by nbconvert itself (Debian's `jupyter-nbconvert`, installed on demand) and opened in Chromium: an attack
// is live when its script or handler ran in the rendered page, and is withheld by the shipped profile under every
// plausible sending (application/json, text/plain, octet-stream, none; `.ipynb`, `.IPYNB`, `.json`, no extension).
// Controls render inert and are allowed. Variations: nbformat 3 and 4, outputs as strings and arrays, html,
// javascript and markdown outputs, raw cells, attachments, escapes, duplicate keys. Under CI=true a missing
// nbconvert or Chromium fails.
import { describe, expect, test } from 'vitest';
import { useNbconvertViewer } from '../../helpers/nbconvert-viewer.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

// nbconvert's html of the notebook, opened in Chromium: whether anything in it ran
const runsInViewer = useNbconvertViewer();

const ran = 'window.__ran=1';
const nb4 = (cells: unknown[]): string =>
  JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells }, null, 1);
const nb3 = (cells: unknown[]): string =>
  JSON.stringify({ nbformat: 3, nbformat_minor: 0, metadata: {}, worksheets: [{ cells }] }, null, 1);
const md = (source: string | string[], extra: Record<string, unknown> = {}) => ({
  cell_type: 'markdown',
  metadata: {},
  source,
  ...extra,
});
const out = (data: Record<string, unknown>, outputType = 'display_data') => ({
  cell_type: 'code',
  metadata: {},
  execution_count: 1,
  source: 'x',
  outputs: [
    { output_type: outputType, metadata: {}, data, ...(outputType === 'execute_result' ? { execution_count: 1 } : {}) },
  ],
});
const out3 = (output: Record<string, unknown>) => ({
  cell_type: 'code',
  input: 'x',
  language: 'python',
  outputs: [{ output_type: 'display_data', metadata: {}, ...output }],
});
const png1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const svgWithScript = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" onload="parent.__ran=1"><script>parent.__ran=1</script></svg>`,
).toString('base64');

const attacks: [string, string | Buffer][] = [
  ['an html output split across an array', nb4([out({ 'text/html': ['<img src="x" ', `onerror="${ran}">`] })])],
  ['a javascript output as an array', nb4([out({ 'application/javascript': ['window.__ran', '=1'] })])],
  ['an execute_result html output', nb4([out({ 'text/html': `<svg onload="${ran}"></svg>` }, 'execute_result')])],
  ['a markdown cell split across lines', nb4([md(['# Notes\n', '\n', '<img src="x"\n', `onerror="${ran}">\n`])])],
  ['a markdown cell with a srcdoc frame', nb4([md('<iframe srcdoc="<script>parent.__ran=1</script>"></iframe>')])],
  [
    'a markdown cell with an attachment and a handler',
    nb4([
      md(`![c](attachment:c.png)\n\n<img src="x" onerror="${ran}">`, {
        attachments: { 'c.png': { 'image/png': png1x1 } },
      }),
    ]),
  ],
  [
    'an html output written with json escapes',
    nb4([out({ 'text/html': `<script>${ran}</script>` })]).replaceAll('<', '\\u003c'),
  ],
  [
    'a benign cells key shadowed by a later one',
    nb4([md('# Fine')]).replace(
      /\n}$/,
      `,\n "cells": ${JSON.stringify([out({ 'text/html': `<img src=x onerror="${ran}">` })])}\n}`,
    ),
  ],
  ['a markdown output as an array', nb4([out({ 'text/markdown': ['<img src="x" ', `onerror="${ran}">`] })])],
  [
    'an nbformat 3 markdown cell',
    nb3([{ cell_type: 'markdown', metadata: {}, source: `<img src=x onerror="${ran}">` }]),
  ],
  ['an nbformat 3 javascript output', nb3([out3({ javascript: ran })])],
  ['an nbformat 3 html output as an array', nb3([out3({ html: ['<img src="x"', ` onerror="${ran}">`] })])],
  [
    'a notebook with CRLF lines',
    nb4([md('# Notes'), out({ 'text/html': `<img src="x" onerror="${ran}">` })]).replaceAll('\n', '\r\n'),
  ],
];

const controls: [string, string][] = [
  [
    'a markdown cell showing a png attachment',
    nb4([md('# Chart\n\n![chart](attachment:chart.png)', { attachments: { 'chart.png': { 'image/png': png1x1 } } })]),
  ],
  [
    'a markdown cell showing an svg attachment (an image: its script does not run)',
    nb4([md('![logo](attachment:logo.svg)', { attachments: { 'logo.svg': { 'image/svg+xml': svgWithScript } } })]),
  ],
  [
    'a stream output printing markup',
    nb4([
      {
        cell_type: 'code',
        metadata: {},
        execution_count: 1,
        source: 'print(html)',
        outputs: [{ output_type: 'stream', name: 'stdout', text: ['<img src=x ', `onerror="${ran}">\n`] }],
      },
    ]),
  ],
  [
    'a text/plain output printing a script (viewers show it escaped)',
    nb4([out({ 'text/plain': `<script>${ran}</script>` }, 'execute_result')]),
  ],
  [
    'a stream printing a script',
    nb4([
      {
        cell_type: 'code',
        metadata: {},
        execution_count: 1,
        source: 'print(page)',
        outputs: [{ output_type: 'stream', name: 'stdout', text: [`<script>${ran}</script>\n`] }],
      },
    ]),
  ],
  [
    'an nbformat 3 notebook with a table and a png',
    nb3([
      {
        cell_type: 'markdown',
        metadata: {},
        source: ['# Results\n', '\n', '| a | b |\n', '|---|---|\n', '| 1 | 2 |\n'],
      },
      out3({ png: png1x1, text: ['<Figure>'] }),
    ]),
  ],
];

const sendings = sendingsOf(
  'guide://lab/analysis',
  ['.ipynb', '.IPYNB', '.json', ''],
  ['application/json', 'application/x-ipynb+json', 'text/plain', 'application/octet-stream', undefined],
);

// a control is sent only as types default.yaml admits (the others are refused by type, whatever the body)
const allowedSendings = sendingsOf(
  'guide://lab/analysis',
  ['.ipynb', '.IPYNB', '.json', ''],
  ['application/json', 'text/plain', undefined],
);

describe('nbconvert renders each attack live, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([name, body]) => ({ name, body })))('$name', { timeout: 180_000 }, async ({ body }, ctx) => {
    expect(await runsInViewer(ctx, body)).toBe(true);
    const sent = typeof body === 'string' ? { text: body } : { blob: body };
    expect(letThrough(await judgeSendings(sent, sendings))).toEqual([]);
  });
});

describe('nbconvert renders each control inert, the shipped profile allows it however it is sent', () => {
  test.for(controls.map(([name, body]) => ({ name, body })))('$name', { timeout: 180_000 }, async ({ body }, ctx) => {
    expect(await runsInViewer(ctx, body)).toBe(false);
    expect(refused(await judgeSendings({ text: body }, allowedSendings))).toEqual([]);
  });
});
