import { deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { activePdfNames, decodeName, scanPdf } from '../../src/content/pdf-active.ts';
import { makePdf } from '../fixtures/make-bytes.ts';

describe('scanPdf', () => {
  test('a clean pdf has no findings', () => {
    expect(scanPdf(makePdf())).toEqual({ active: null, uninterpretable: null });
  });

  test.each([...activePdfNames].map((name) => [name]))('finds /%s in the object layer', (name) => {
    expect(scanPdf(makePdf({ activeName: name })).active).toContain(`\`/${name}\``);
  });

  test.each([['JavaScript'], ['Launch'], ['EmbeddedFile']])('finds #xx-escaped /%s', (name) => {
    const found = scanPdf(makePdf({ activeName: name, escapeName: true })).active;
    expect(found).toContain(`\`/${name}\``);
    expect(found).toMatch(/written `\/[^`]*#/);
  });

  test.each([['JavaScript'], ['XFA'], ['SubmitForm']])('finds /%s inside a FlateDecode object stream', (name) => {
    expect(scanPdf(makePdf({ activeName: name, inObjectStream: true })).active).toMatch(/inside a compressed stream/);
  });

  test.each([
    ['an object stream with a filter it cannot undo', makePdf({ activeName: 'JavaScript', inObjectStream: true, objectStreamFilter: 'ASCIIHexDecode' }), /filter `ASCIIHexDecode`/],
    ['an encrypted pdf', makePdf({ encrypted: true }), /encrypted/],
    ['a truncated pdf', makePdf({ omitEof: true }), /no `%%EOF`/],
  ])('cannot interpret %s', (_, bytes, message) => {
    expect(scanPdf(bytes).uninterpretable).toMatch(message);
  });

  test('stops inflating at the budget (a deflate bomb is uninterpretable, not a crash)', () => {
    const bomb = deflateSync(Buffer.alloc(8 * 1024 * 1024));
    const pdf = Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`, 'latin1'),
      bomb,
      Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
    ]);
    expect(scanPdf(pdf, 1024 * 1024).uninterpretable).toMatch(/inspection budget/);
  });

  test('does not read names inside image data', () => {
    const pixels = Buffer.from('/JavaScript /JS /Launch', 'latin1');
    const pdf = Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /XObject /Subtype /Image /Length ${pixels.length} >>\nstream\n`, 'latin1'),
      pixels,
      Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
    ]);
    expect(scanPdf(pdf).active).toBeNull();
  });

  test.each([
    ['J#61vaScript', 'JavaScript'],
    ['J#53', 'JS'],
    ['Plain', 'Plain'],
  ])('decodeName(%s) = %s', (raw, name) => {
    expect(decodeName(raw)).toBe(name);
  });
});
