// Review of 8c036b1 (a notebook read only by its viewers): a notebook sent as text/plain or with no type is skipped
// by the browser and the markdown renderers, whatever its uri. A uri named `.html` is a page to a host that saves and
// opens it (browser.ts, pageExtensions), and `.md` is a page to a markdown renderer or an MDX/VitePress site: there
// the notebook's raw JSON is read as HTML or markdown, where a code cell's `<script>` is live. Controls: the same
// notebook as `.ipynb`, `.json` or no extension stays allowed (notebook-escaped-outputs.test.ts).
import { describe, expect, test } from 'vitest';
import { judgeSendings, letThrough, refused, sendingsOf } from '../content/redteam/judge-variants.ts';

const script = '<script>window.__ran=1</script>';
// a notebook whose viewers show nothing active: the script is in a code cell's source and a text/plain output
const notebook = JSON.stringify(
  {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      {
        cell_type: 'code',
        metadata: {},
        execution_count: 1,
        source: `html = "${script}"`,
        outputs: [{ output_type: 'display_data', metadata: {}, data: { 'text/plain': script } }],
      },
    ],
  },
  null,
  1,
);

describe('a notebook at a uri a page reader opens is read as that page', () => {
  test.each([
    ['.html', ['.html', '.htm', '.HTML', '.xhtml']],
    ['.md', ['.md', '.markdown']],
  ])('named %s, sent as text/plain or with no type', async (_name, exts) => {
    const verdicts = await judgeSendings(
      { text: notebook },
      sendingsOf('guide://lab/analysis', exts, ['text/plain', undefined]),
    );
    expect(letThrough(verdicts)).toEqual([]);
  });

  test('declared text/html or markdown, under any name, it is read as a page (held)', async () => {
    const verdicts = await judgeSendings(
      { text: notebook },
      sendingsOf('guide://lab/analysis', ['.ipynb', '.json', ''], ['text/html', 'text/markdown']),
    );
    expect(letThrough(verdicts)).toEqual([]);
  });

  test('control: as .ipynb, .json or no extension it is allowed', async () => {
    const verdicts = await judgeSendings(
      { text: notebook },
      sendingsOf('guide://lab/analysis', ['.ipynb', '.json', ''], ['text/plain', undefined]),
    );
    expect(refused(verdicts)).toEqual([]);
  });
});
