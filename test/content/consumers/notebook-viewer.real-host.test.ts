// The notebook consumer against nbconvert itself (issue 41 item 6): Debian's `jupyter-nbconvert` (installed on demand
// with apt) renders each notebook to HTML as its viewers do, and Chromium opens the page. An attack is shown active
// by the oracle (its script or handler ran in the rendered page) and withheld by the gate's notebook adapter, even
// declared application/json; a benign control renders inert and is allowed. The page gets the jQuery stub the
// viewer's own template loads (nbconvert's javascript outputs start with `$(…)`); nothing else is loaded. Under
// CI=true a missing nbconvert or Chromium fails the suite.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../../src/gate/create-gate.ts';
import { parsePolicy } from '../../../src/policy/load-policy.ts';
import { useNbconvertViewer } from '../../helpers/nbconvert-viewer.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const defaultYaml = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
// the notebook adapter alone, so each deny is its own; the controls under the default profile
const notebookOnly = createGate(
  parsePolicy(defaultYaml.replace(/^content:\n/m, 'content:\n  consumers: [notebook]\n'), 'notebook.yaml'),
);
const defaults = createGate(parsePolicy(defaultYaml, 'default.yaml'));

// nbconvert's html of the notebook, opened in Chromium: whether anything in it ran
const renders = useNbconvertViewer();

const ran = 'window.__ran=1';
const notebook = (cells: unknown[]): string =>
  JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells }, null, 1);
const markdown = (source: string) => ({ cell_type: 'markdown', metadata: {}, source });
const output = (data: Record<string, unknown>) => ({
  cell_type: 'code',
  metadata: {},
  execution_count: 1,
  source: 'x',
  outputs: [{ output_type: 'display_data', metadata: {}, data }],
});

const attacks: [string, string][] = [
  ['a markdown cell with a handler', notebook([markdown(`# Hi\n\n<img src="x" onerror="${ran}">`)])],
  ['an html output with a script', notebook([output({ 'text/html': `<script>${ran}</script>` })])],
  ['a javascript output', notebook([output({ 'application/javascript': ran })])],
  ['a markdown output with a handler', notebook([output({ 'text/markdown': `<img src="x" onerror="${ran}">` })])],
  ['an html output with a handler', notebook([output({ 'text/html': `<img src="x" onerror="${ran}">` })])],
  [
    'an nbformat 3 html output',
    JSON.stringify({
      nbformat: 3,
      nbformat_minor: 0,
      metadata: {},
      worksheets: [
        {
          cells: [
            {
              cell_type: 'code',
              input: 'x',
              language: 'python',
              outputs: [{ output_type: 'display_data', metadata: {}, html: `<script>${ran}</script>` }],
            },
          ],
        },
      ],
    }),
  ],
];
// nbconvert 6.5 strips an svg output's attributes and leaves raw cells out of its html: the gate still denies them
// (JupyterLab renders a trusted notebook's svg output as it is), so they are neither attacks nor controls here

const controls: [string, string][] = [
  [
    'an ordinary notebook',
    notebook([
      markdown('# Analysis\n\nWe fit *y = ax + b*; see `Array<object>`.'),
      output({ 'text/html': '<table><tr><td>1</td></tr></table>', 'text/plain': '   a\n0  1' }),
    ]),
  ],
  [
    'a markdown cell showing a script in code',
    notebook([markdown('Run:\n\n```html\n<script>window.__ran=1</script>\n```\n')]),
  ],
  ['a text output holding markup', notebook([output({ 'text/plain': `<script>${ran}</script>` })])],
];

async function decide(gate: ReturnType<typeof createGate>, text: string) {
  const uri = 'guide://lab/analysis.ipynb';
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: 'analysis', mimeType: 'application/json' },
    result: { resultType: 'complete', contents: [{ uri, mimeType: 'application/json', text }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}

describe('nbconvert renders each attack live, the gate withholds it', () => {
  test.for(attacks)('%s', { timeout: 120_000 }, async ([, text], ctx) => {
    expect(await renders(ctx, text)).toBe(true);
    const verdict = await decide(notebookOnly, text);
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/notebook cell/);
  });
});

describe('nbconvert renders each control inert, the gate allows it', () => {
  test.for(controls)('%s', { timeout: 120_000 }, async ([, text], ctx) => {
    expect(await renders(ctx, text)).toBe(false);
    expect(await decide(defaults, text)).toEqual({ effect: 'allow', why: '' });
  });
});
