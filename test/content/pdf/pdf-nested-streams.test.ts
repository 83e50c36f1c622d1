// Nested PDF object streams (issue 41 item 3): the active objects sit only in an object stream stored inside
// another object stream (compressed on its own, so the outer stream's inflated bytes never show them), written
// with a compressed cross-reference stream, `/Extends` and a filter chain on the outer stream. pdf.js (the
// oracle) finds the action in every attack; the gate withholds each under policies/default.yaml, withholds what
// lies past its nesting and stream caps (never "absent"), and allows the same files without actions.
import { describe, expect, test } from 'vitest';
import { maxObjectStreamNesting, scanPdf } from '../../../src/content/pdf/pdf-active.ts';
import { decideItem } from '../decide-item.ts';
import { type NestedActive, type NestedShape, nestedObjectStreamPdf } from './make-nested-pdf.ts';
import { pdfJsActiveContent } from './pdfjs-oracle.ts';

const actives: NestedActive[] = [
  'open-action-script',
  'launch',
  'embedded-file',
  'uri-javascript',
  'uri-javascript-by-reference',
  'xfa',
  'rich-media',
];

// how the object streams around the active objects are written
const shapes: [string, Omit<NestedShape, 'active'>][] = [
  ['one object stream inside another', { levels: 2 }],
  [
    'three deep, each extending the one around it, compressed xref',
    { levels: 3, extendsOuter: true, compressedXref: true },
  ],
  ['inside an outer stream filtered ASCII85 then Flate', { levels: 2, outerFilters: ['ASCII85Decode', 'FlateDecode'] }],
  [
    'inside an outer stream filtered ASCIIHex then Flate',
    { levels: 2, outerFilters: ['ASCIIHexDecode', 'FlateDecode'] },
  ],
  ['inside an outer stream inflated twice', { levels: 2, outerFilters: ['FlateDecode', 'FlateDecode'] }],
  [`${maxObjectStreamNesting} object streams deep`, { levels: maxObjectStreamNesting + 1, compressedXref: true }],
];

const attacks = actives.flatMap((active) =>
  shapes.map(([how, shape]): [string, string, NestedShape] => [active, how, { active, ...shape }]),
);

describe('pdf: active objects in nested object streams, found by pdf.js, withheld by the gate', () => {
  test.each(attacks)('%s, %s', async (_, __, shape) => {
    const bytes = nestedObjectStreamPdf(shape);
    expect(await pdfJsActiveContent(bytes)).not.toEqual([]);
    expect(scanPdf(bytes).active).toMatch(/pdf active content/);
    const { effect, codes } = await decideItem(bytes, 'application/pdf');
    expect(effect).toBe('deny');
    expect(codes).toContain('content.executable');
  });
});

describe('pdf: the nesting and stream caps withhold, never pass', () => {
  test('object streams nested past the cap: pdf.js runs the script, the gate withholds the file', async () => {
    const bytes = nestedObjectStreamPdf({ active: 'open-action-script', levels: maxObjectStreamNesting + 3 });
    expect(await pdfJsActiveContent(bytes)).not.toEqual([]);
    const scan = scanPdf(bytes);
    expect(scan.active).toBeNull();
    expect(scan.uninterpretable).toMatch(/nests object streams/);
    const { effect, codes } = await decideItem(bytes, 'application/pdf');
    expect(effect).not.toBe('allow');
    expect(codes).toContain('content.uninterpretable');
  });

  test('more nested streams than the stream cap: uninterpretable, not clean', () => {
    const bytes = nestedObjectStreamPdf({ active: 'open-action-script', levels: 3 });
    const scan = scanPdf(bytes, undefined, 2);
    expect(scan.active).toBeNull();
    expect(scan.uninterpretable).toMatch(/more than 2 compressed streams/);
  });

  test('inflate budget spent by the outer streams: uninterpretable, not clean', () => {
    const bytes = nestedObjectStreamPdf({ active: 'open-action-script', levels: 3 });
    const scan = scanPdf(bytes, 300);
    expect(scan.active).toBeNull();
    expect(scan.uninterpretable).not.toBeNull();
  });
});

const controls = (['none', 'uri-https'] as const).flatMap((active) =>
  shapes.map(([how, shape]): [string, string, NestedShape] => [active, how, { active, ...shape }]),
);

describe('pdf: ordinary nested object streams without actions are allowed', () => {
  test.each(controls)('%s, %s', async (_, __, shape) => {
    const bytes = nestedObjectStreamPdf(shape);
    expect(await pdfJsActiveContent(bytes)).toEqual([]);
    const { effect, messages } = await decideItem(bytes, 'application/pdf');
    expect(effect, messages).toBe('allow');
  });
});
