// A fresh round for notebook viewers (issue 41): notebooks written by Python's json, which writes and reads `NaN`,
// `Infinity` and `-Infinity` where JSON has none (a float in cell or output metadata). nbconvert reads them with
// Python's json and renders their outputs; a reader held to JSON.parse finds no notebook and shows text, in which
// markup escaped as `\u003c` is inert. nbconvert (Debian's `jupyter-nbconvert`, installed on demand) renders each
// one and Chromium opens the page: an attack is live when its script or handler ran. Controls render inert and are
// allowed. Under CI=true a missing nbconvert or Chromium fails.
import { describe, expect, test } from 'vitest';
import { useNbconvertViewer } from '../../helpers/nbconvert-viewer.ts';
import { htmlOutput, markdownCell } from '../notebook-cells.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const runsInViewer = useNbconvertViewer();
const ran = 'window.__ran=1';

// a notebook as Python's json.dumps writes it, `literal` standing in a metadata float, markup escaped as json does
// when asked to (`\u003c`), so the raw text holds no tag
function pythonNotebook(literal: string, cells: unknown[], where: 'notebook' | 'output' = 'notebook'): string {
  const marker = '"__LITERAL__"';
  const meta = where === 'notebook' ? { loss: '__LITERAL__' } : {};
  const text = JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: meta, cells }, null, 1);
  return text.replaceAll(marker, literal).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e');
}

const attacks: [string, string][] = [
  [
    'an html output in a notebook with NaN metadata',
    pythonNotebook('NaN', [htmlOutput(`<img src=x onerror="${ran}">`)]),
  ],
  [
    'a markdown cell in a notebook with Infinity metadata',
    pythonNotebook('Infinity', [markdownCell(`# Results\n\n<img src=x onerror="${ran}">\n`)]),
  ],
  [
    'an svg output beside -Infinity in output metadata',
    pythonNotebook('-Infinity', [htmlOutput(`<svg onload="${ran}"></svg>`, { score: '__LITERAL__' })], 'output'),
  ],
  [
    'a javascript output in a notebook with NaN metadata',
    pythonNotebook('NaN', [
      {
        cell_type: 'code',
        metadata: {},
        execution_count: 1,
        source: 'x',
        outputs: [{ output_type: 'display_data', metadata: {}, data: { 'application/javascript': ran } }],
      },
    ]),
  ],
];

const controls: [string, string][] = [
  [
    'a training notebook with NaN losses and a table output',
    pythonNotebook('NaN', [
      markdownCell('# Training\n\nLoss per epoch (the first is `NaN` before warm-up).'),
      htmlOutput('<table><tr><th>epoch</th><th>loss</th></tr><tr><td>1</td><td>NaN</td></tr></table>'),
    ]),
  ],
];

const sendings = sendingsOf(
  'guide://lab/analysis',
  ['.ipynb', '.IPYNB', '.json', ''],
  ['application/json', 'application/x-ipynb+json', 'text/plain', undefined],
);

describe('nbconvert renders each attack live, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([name, body]) => ({ name, body })))('$name', { timeout: 120_000 }, async ({ body }, ctx) => {
    expect(await runsInViewer(ctx, body)).toBe(true);
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });
});

describe('nbconvert renders each control inert, the shipped profile allows it however it is sent', () => {
  test.for(controls.map(([name, body]) => ({ name, body })))('$name', { timeout: 120_000 }, async ({ body }, ctx) => {
    expect(await runsInViewer(ctx, body)).toBe(false);
    const admitted = sendings.filter(([, type]) => type !== 'application/x-ipynb+json');
    expect(refused(await judgeSendings({ text: body }, admitted))).toEqual([]);
  });
});
