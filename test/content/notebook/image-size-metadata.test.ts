// An image output's size metadata (round 10): nbconvert's classic and lab templates write `width` and `height`
// unquoted into the `<img>` tag (`width={{ width | escape_html }}`), the image type's entry first, then the output's
// own; `html.escape` leaves spaces and `=`, so a value holding ` on…=` is a handler in the exported page (the round 10
// notebook suite shows it run in Chromium). Numbers and plain lengths stay allowed.
import { describe, expect, test } from 'vitest';
import { judgeSendings, letThrough, refused, sendingsOf } from '../redteam/judge-variants.ts';

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const notebookOf = (data: Record<string, unknown>, metadata: Record<string, unknown>): string =>
  JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      {
        cell_type: 'code',
        source: 'plot()',
        metadata: {},
        execution_count: 1,
        outputs: [{ output_type: 'display_data', data, metadata }],
      },
    ],
  });
const sendings = sendingsOf('guide://lab/analysis', ['.ipynb', ''], ['application/json', 'text/plain']);

describe('an image output whose size metadata nbconvert writes as a handler is withheld', () => {
  test.each([
    ['a png width', { 'image/png': png }, { 'image/png': { width: '1 onload=alert(1)' } }],
    ['a png height at the top level', { 'image/png': png }, { height: '2 onerror=alert(1)' }],
    ['a jpeg width', { 'image/jpeg': png }, { 'image/jpeg': { width: '3 onload=alert(1)' } }],
    ['a handler inside a list value', { 'image/png': png }, { width: ['a onload=alert(1) b'] }],
    ['the top level, the image entry naming no size', { 'image/png': png }, { 'image/png': {}, width: '1 onload=x()' }],
  ])('%s', async (_name, data, metadata) => {
    const verdicts = await judgeSendings({ text: notebookOf(data, metadata) }, sendings);
    expect(letThrough(verdicts)).toEqual([]);
    for (const v of verdicts) expect(v.why).toMatch(/size metadata nbconvert writes/);
  });
});

describe('ordinary size metadata is allowed', () => {
  test.each([
    ['numbers (a retina figure)', { 'image/png': png }, { 'image/png': { width: 389, height: 278 } }],
    ['numeric strings at the top level', { 'image/jpeg': png }, { width: '320', height: '240' }],
    ['a handler-like width on an output that is no image', { 'text/plain': 'x' }, { width: '1 onload=alert(1)' }],
    [
      'the image entry wins over the top level',
      { 'image/png': png },
      { 'image/png': { width: 5 }, width: '1 onload=x()' },
    ],
  ])('%s', async (_name, data, metadata) => {
    expect(refused(await judgeSendings({ text: notebookOf(data, metadata) }, sendings))).toEqual([]);
  });
});
