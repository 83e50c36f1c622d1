// What notebook viewers show escaped stays text (issue 41 item 5): nbconvert, JupyterLab and nbviewer print code,
// streams and `text/plain` outputs as escaped text, so a notebook printing `<script>` is allowed however a server
// sends it (JSON, text/plain, no type; `.ipynb`, `.json`, no extension), and its raw JSON is not read a second time
// as markdown or as a sniffed page. What its viewers render (html, markdown, svg and javascript outputs, markdown
// cells) is still judged, and a notebook declared markdown reaches the markdown renderers as its raw text.
// nbconvert itself renders these controls inert in test/content/redteam/notebook-rounds.real-host.test.ts.
import { describe, expect, test } from 'vitest';
import { judgeSendings, letThrough, refused, sendingsOf } from './redteam/judge-variants.ts';

const script = '<script>window.__ran=1</script>';
const nb4 = (cells: unknown[]): string =>
  JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells }, null, 1);
const code = (outputs: unknown[], source = 'print(page)') => ({
  cell_type: 'code',
  metadata: {},
  execution_count: 1,
  source,
  outputs,
});
const display = (data: Record<string, unknown>) => ({ output_type: 'display_data', metadata: {}, data });

const sendings = sendingsOf(
  'guide://lab/analysis',
  ['.ipynb', '.json', ''],
  ['application/json', 'application/x-ipynb+json', 'text/plain', undefined],
);
// a control is sent only as types policies/default.yaml admits (others are refused by type, whatever the body)
const allowedSendings = sendings.filter(([, type]) => type !== 'application/x-ipynb+json');

describe('a notebook printing markup as text is allowed however it is sent', () => {
  test.each([
    ['a text/plain output holding a script', nb4([code([display({ 'text/plain': script })])])],
    ['a stream printing a script', nb4([code([{ output_type: 'stream', name: 'stdout', text: [`${script}\n`] }])])],
    ['a code cell whose source writes a script', nb4([code([], `html = "${script}"`)])],
    [
      'an error output whose traceback holds a script',
      nb4([code([{ output_type: 'error', ename: 'E', evalue: script, traceback: [script] }])]),
    ],
  ])('%s', async (_name, body) => {
    expect(refused(await judgeSendings({ text: body }, allowedSendings))).toEqual([]);
  });
});

describe('what its viewers render is still judged', () => {
  test.each([
    ['a text/html output', nb4([code([display({ 'text/html': script, 'text/plain': 'x' })])])],
    ['a markdown cell', nb4([{ cell_type: 'markdown', metadata: {}, source: `# Hi\n\n${script}` }])],
    ['a text/markdown output', nb4([code([display({ 'text/markdown': '[x](javascript:alert(1))' })])])],
    [
      'an svg output',
      nb4([code([display({ 'image/svg+xml': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>' })])]),
    ],
  ])('%s', async (_name, body) => {
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });

  test('declared markdown, its raw text reaches the markdown renderers', async () => {
    const body = nb4([code([display({ 'text/plain': script })])]);
    const verdicts = await judgeSendings({ text: body }, [['guide://lab/analysis.md', 'text/markdown']]);
    expect(verdicts.map((v) => v.effect)).toEqual(['deny']);
    expect(verdicts[0]?.why).toMatch(/markdown renders to html with a `<script>` element/);
  });
});
