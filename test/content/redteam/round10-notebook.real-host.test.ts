// Red team round 10 for notebook viewers (issue 41): what nbconvert's own templates (Debian's jupyter-nbconvert,
// `basic` template, installed on demand) write from parts of a notebook that are not cells' text or outputs' html:
// an image output's `width`/`height` metadata (written unquoted into the `<img>` tag, escaped for quotes and angle
// brackets only), html outputs shown isolated (in a `data:` frame). The oracle is nbconvert's html opened in Chromium
// (a handler ran and fetched a marker url). Controls are the
// notebooks data work writes every day (a pandas frame, retina figures with numeric sizes, a course notebook's alert
// boxes and latex, a widget view with no saved state): inert in the viewer and allowed. A case that gets through is
// a `test.fails` named in `open` (the round's findings in its session's closing note). Under CI=true a missing nbconvert or Chromium
// fails.
import { describe, expect, type TestContext, test } from 'vitest';
import { useNbconvertLoads } from '../../helpers/nbconvert-viewer.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

// live: something in the rendered page ran and fetched the marker url (a handler or script in the page, or in the
// data: frame nbconvert shows an isolated output in, whose opaque origin cannot reach the page's globals)
const loadsInViewer = useNbconvertLoads();
const ran = "fetch('http://ran.test/')";
const runsInViewer = async (ctx: TestContext, body: string): Promise<boolean> =>
  (await loadsInViewer(ctx, body)).some((url) => url.startsWith('http://ran.test/'));
const png1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const jpeg1x1 =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';
const nb4 = (cells: unknown[]): string =>
  JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells }, null, 1);
const output = (data: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  cell_type: 'code',
  metadata: {},
  execution_count: 1,
  source: 'plot()',
  outputs: [{ output_type: 'display_data', metadata, data }],
});
const raw = (source: string, metadata: Record<string, unknown> = {}) => ({ cell_type: 'raw', metadata, source });

// key (for the open set), name, notebook
const attacks: [string, string, string][] = [
  [
    'nb-png-width',
    "a png output's width metadata (written unquoted into the img tag)",
    nb4([output({ 'image/png': png1x1, 'text/plain': '<Figure>' }, { 'image/png': { width: `1 onload=${ran}` } })]),
  ],
  [
    'nb-png-height-top',
    "a png output's top-level height metadata",
    nb4([output({ 'image/png': png1x1 }, { height: `1 onload=${ran}` })]),
  ],
  [
    'nb-jpeg-width',
    "a jpeg output's width metadata",
    nb4([output({ 'image/jpeg': jpeg1x1 }, { 'image/jpeg': { width: `9 onload=${ran}` } })]),
  ],
  [
    'nb-isolated-html',
    'an html output shown isolated',
    nb4([output({ 'text/html': `<img src=x onerror="${ran}">` }, { 'text/html': { isolated: true } })]),
  ],
];

const pandasFrame =
  '<div>\n<style scoped>\n    .dataframe tbody tr th:only-of-type {\n        vertical-align: middle;\n    }\n\n    .dataframe tbody tr th {\n        vertical-align: top;\n    }\n\n    .dataframe thead th {\n        text-align: right;\n    }\n</style>\n<table border="1" class="dataframe">\n  <thead>\n    <tr style="text-align: right;">\n      <th></th>\n      <th>city</th>\n      <th>temp</th>\n    </tr>\n  </thead>\n  <tbody>\n    <tr>\n      <th>0</th>\n      <td>Oslo</td>\n      <td>-3.5</td>\n    </tr>\n  </tbody>\n</table>\n</div>';

const controls: [string, string][] = [
  [
    'a pandas data frame output (scoped style and table)',
    nb4([output({ 'text/html': pandasFrame, 'text/plain': '   city  temp\n0  Oslo  -3.5' }, {})]),
  ],
  [
    'retina figures with numeric width and height metadata',
    nb4([
      output(
        { 'image/png': png1x1, 'text/plain': '<Figure size 640x480 with 1 Axes>' },
        {
          'image/png': { width: 389, height: 278 },
          needs_background: 'light',
        },
      ),
      output({ 'image/jpeg': jpeg1x1 }, { width: '320', height: '240' }),
    ]),
  ],
  [
    'a course notebook: alert boxes, a latex output, an html details block',
    nb4([
      {
        cell_type: 'markdown',
        metadata: {},
        source: [
          '<div class="alert alert-block alert-info">\n',
          '<b>Tip:</b> run the cells in order.<br>\n',
          '</div>\n',
          '\n',
          '$$ \\int_0^1 x^2\\,dx = \\frac{1}{3} $$\n',
          '\n',
          '<details><summary>Answer</summary>\n\n`x < y` when <i>a &lt; b</i>\n\n</details>\n',
        ],
      },
      output({ 'text/latex': '$\\displaystyle \\frac{1}{3}$', 'text/plain': '1/3' }),
    ]),
  ],
  [
    'a widget view output with no saved widget state',
    nb4([
      output({
        'application/vnd.jupyter.widget-view+json': { model_id: 'f3a1', version_major: 2, version_minor: 0 },
        'text/plain': 'IntSlider(value=0)',
      }),
    ]),
  ],
  [
    'a raw cell in restructured text showing a directive with markup',
    nb4([raw('.. raw:: html\n\n   <img src=x onerror=alert(1)>\n', { raw_mimetype: 'text/restructuredtext' })]),
  ],
];

/** Attacks the gate lets through at the time of writing (named in the round's findings in its session's closing note). */
const open = new Set<string>([]);

const sendings = sendingsOf(
  'guide://lab/analysis',
  ['.ipynb', '.json', ''],
  ['application/json', 'application/x-ipynb+json', 'text/plain', undefined],
);
// a control goes only as types default.yaml admits
const allowedSendings = sendingsOf(
  'guide://lab/analysis',
  ['.ipynb', '.json', ''],
  ['application/json', 'text/plain', undefined],
);

// the consumer's verdict and the gate's are separate tests, so a `test.fails` for the gate cannot pass because the
// consumer did not run the attack
describe('round 10: nbconvert renders each attack live', () => {
  test.for(attacks.map(([key, name, body]) => ({ key, name, body })))(
    '$key: $name',
    { timeout: 180_000 },
    async ({ body }, ctx) => {
      expect(await runsInViewer(ctx, body)).toBe(true);
    },
  );
});

describe('round 10: the shipped profile withholds each attack however it is sent', () => {
  for (const [key, name, body] of attacks)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async () => {
      expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
    });
});

describe('round 10: nbconvert renders each control inert, the shipped profile allows it however it is sent', () => {
  test.for(controls.map(([name, body]) => ({ name, body })))('$name', { timeout: 180_000 }, async ({ body }, ctx) => {
    expect(await runsInViewer(ctx, body)).toBe(false);
    expect(refused(await judgeSendings({ text: body }, allowedSendings))).toEqual([]);
  });
});
