import { deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { defaultMaxInflatedStreams, scanPdf } from '../../../src/content/pdf/pdf-active.ts';
import { activePdfNames, decodeName } from '../../../src/content/pdf/pdf-names.ts';
import { makePdf } from '../../fixtures/make-bytes.ts';

describe('scanPdf', () => {
  test('a clean pdf has no findings', () => {
    expect(scanPdf(makePdf())).toMatchObject({ active: null, uninterpretable: null });
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
    [
      'an object stream with a filter it cannot undo',
      makePdf({ activeName: 'JavaScript', inObjectStream: true, objectStreamFilter: 'JBIG2Decode' }),
      /filter `JBIG2Decode`/,
    ],
    ['an encrypted pdf', makePdf({ encrypted: true }), /encrypted/],
    ['a truncated pdf', makePdf({ omitEof: true }), /no `%%EOF`/],
  ])('cannot interpret %s', (_, bytes, message) => {
    expect(scanPdf(bytes).uninterpretable).toMatch(message);
  });

  test('reads an object stream under ASCIIHexDecode alone (no compression in the chain)', () => {
    const scan = scanPdf(
      makePdf({ activeName: 'JavaScript', inObjectStream: true, objectStreamFilter: 'ASCIIHexDecode' }),
    );
    expect(scan.active).toMatch(/JavaScript/);
    expect(scan.uninterpretable).toBeNull();
  });

  test('stops inflating at the budget (a deflate bomb is uninterpretable, not a crash)', () => {
    const bomb = deflateSync(Buffer.alloc(8 * 1024 * 1024));
    const pdf = Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`,
        'latin1',
      ),
      bomb,
      Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
    ]);
    expect(scanPdf(pdf, 1024 * 1024).uninterpretable).toMatch(/inspection budget/);
  });

  test('does not read names inside image data', () => {
    const pixels = Buffer.from('/JavaScript /JS /Launch', 'latin1');
    const pdf = Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n1 0 obj\n<< /Type /XObject /Subtype /Image /Length ${pixels.length} >>\nstream\n`,
        'latin1',
      ),
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

  test.each([
    ['`#` without two hex digits ends a name', '/J#zzavaScript', null],
    ['an escape cut by a delimiter', '/J#6', null],
    ['a name longer than any active name', `/${'#4A'.repeat(14)}`, null],
    ['a name right after another', '/Type/JS', /`\/JS`/],
    ['NUL ends a name (white space in PDF 32000 §7.2.3)', '/JS\u0000x', /`\/JS`/],
  ])('names: %s', (_, body, found) => {
    const active = scanPdf(Buffer.from(`%PDF-1.7\n1 0 obj\n<< ${body} >>\nendobj\n%%EOF\n`, 'latin1')).active;
    if (found === null) expect(active).toBeNull();
    else expect(active).toMatch(found);
  });

  test('an unclosed `/Filter [` does not hide a later `/Filter`', () => {
    const inner = deflateSync(Buffer.from('6 0 << /S /JavaScript >>', 'latin1'));
    const dict = `<< /Type /ObjStm /N 1 /First 4 ${'/Filter [ '.repeat(2000)}/Filter /FlateDecode /Length ${inner.length} >>`;
    const pdf = Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n${dict}\nstream\n`, 'latin1'),
      inner,
      Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
    ]);
    expect(scanPdf(pdf).active).toMatch(/`\/JavaScript` inside a compressed stream/);
  });
});

describe('scanPdf: bounded work (counted, never timed)', () => {
  const streams = (n: number, body = 'BT (x) Tj ET'): Buffer => {
    const data = deflateSync(Buffer.from(body, 'latin1'));
    const parts = [Buffer.from('%PDF-1.7\n', 'latin1')];
    for (let i = 0; i < n; i++)
      parts.push(
        Buffer.from(`${i + 1} 0 obj\n<< /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, 'latin1'),
        data,
        Buffer.from('\nendstream\nendobj\n', 'latin1'),
      );
    return Buffer.concat(parts);
  };
  const withEof = (...parts: Buffer[]): Buffer => Buffer.concat([...parts, Buffer.from('%%EOF\n', 'latin1')]);

  test.each([
    [5, 10, 0],
    [50, 10, 40],
    [200, 100, 100],
  ])('%i streams under a cap of %i: zlib sees at most the cap', (n, cap, refused) => {
    const scan = scanPdf(withEof(streams(n)), 1024 * 1024, cap);
    expect(scan.work.streams).toBe(n);
    expect(scan.work.inflatedStreams).toBe(Math.min(n, cap));
    if (refused > 0) expect(scan.uninterpretable).toBe(`pdf has more than ${cap} compressed streams to inspect`);
    else expect(scan.uninterpretable).toBeNull();
  });

  test('active names in the object layer are still found past the stream cap (deny beats partial)', () => {
    const scan = scanPdf(
      withEof(streams(30), Buffer.from('9 0 obj\n<< /S /Launch >>\nendobj\n', 'latin1')),
      1024 * 1024,
      10,
    );
    expect(scan.active).toMatch(/`\/Launch` in the object layer/);
    expect(scan.work.inflatedStreams).toBe(10);
  });

  test('the default stream cap is named and finite', () => {
    expect(Number.isSafeInteger(defaultMaxInflatedStreams) && defaultMaxInflatedStreams >= 1).toBe(true);
  });

  test('a second deflate bomb is not inflated once the budget is spent', () => {
    const bomb = deflateSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    const one = Buffer.concat([
      Buffer.from(`<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`, 'latin1'),
      bomb,
      Buffer.from('\nendstream\n', 'latin1'),
    ]);
    const budget = 256 * 1024;
    const scan = scanPdf(withEof(Buffer.from('%PDF-1.7\n', 'latin1'), one, one, one), budget);
    expect(scan.uninterpretable).toMatch(/inspection budget/);
    expect(scan.work.inflatedStreams).toBe(1);
    expect(scan.work.inflatedBytes).toBeLessThanOrEqual(budget);
  });

  test.each([
    ['dense names', Buffer.from(`%PDF-1.7\n${'/a'.repeat(100_000)}\n%%EOF\n`, 'latin1')],
    ['many `stream` words', Buffer.from(`%PDF-1.7\n${'>> stream\n'.repeat(20_000)}%%EOF\n`, 'latin1')],
    ['many small streams', withEof(streams(2000))],
    ['names inside inflated streams', withEof(streams(20, '/a'.repeat(5000)))],
  ])('each byte is read for names at most once: %s', (_, pdf) => {
    const scan = scanPdf(pdf);
    expect(scan.work.scannedBytes).toBeLessThanOrEqual(pdf.length + scan.work.inflatedBytes);
  });
});
