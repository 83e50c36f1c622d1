// A stream whose object header carries a filter pdf.js applies, while a decoy `N G obj` nearer the `stream`
// keyword (inside the dictionary, in a string, after an `endobj` pdf.js skips as a key) points the gate at a
// filter-less dictionary: pdf.js reads the dictionary from the header the xref names, skipping non-name keys, and
// runs the script the filtered data holds. The gate withholds such a stream as uninterpretable.
import { deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { scanPdf } from '../../../src/content/pdf/pdf-active.ts';
import { decideItem } from '../decide-item.ts';
import { runLengthEncode } from './pdf-encoders.ts';
import { pdfJsOpenScripts } from './pdfjs-oracle.ts';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');
const action = '<< /S /JavaScript /JS (app.alert\\(1\\)) >>';
const inner = `4 0\n${action}\n`;

// catalog (OpenAction 4 0 R), pages, page; object 4 stored in the object stream 5 whose dictionary `dict` gets
// the stream's own keys (`/N 1 /First 4 /Length n`, `/Type /ObjStm` when `typed`) and its encoded data
function hiddenFilterPdf(encoded: Buffer, dict: (keys: string) => string, typed: boolean): Buffer {
  const parts: Buffer[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [0];
  const push = (b: Buffer): void => {
    parts.push(b);
    length += b.length;
  };
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  objects.forEach((body, i) => {
    offsets.push(length);
    push(latin1(`${i + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(0);
  offsets.push(length);
  const keys = `${typed ? '/Type /ObjStm ' : ''}/N 1 /First 4 /Length ${encoded.length}`;
  push(latin1(`5 0 obj\n${dict(keys)}\nstream\n`));
  push(encoded);
  push(latin1('\nendstream\nendobj\n'));
  const xrefAt = length;
  const rows = Buffer.alloc(7 * 7);
  rows.writeUInt16BE(0xffff, 5);
  const entries: [number, number, number][] = [
    [1, offsets[1] ?? 0, 0],
    [1, offsets[2] ?? 0, 0],
    [1, offsets[3] ?? 0, 0],
    [2, 5, 0],
    [1, offsets[5] ?? 0, 0],
    [1, xrefAt, 0],
  ];
  entries.forEach(([t, f2, f3], i) => {
    rows.writeUInt8(t, (i + 1) * 7);
    rows.writeUInt32BE(f2, (i + 1) * 7 + 1);
    rows.writeUInt16BE(f3, (i + 1) * 7 + 5);
  });
  push(latin1(`6 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`));
  push(rows);
  push(latin1(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}

const encoders: [string, (b: Buffer) => Buffer][] = [
  ['FlateDecode', (b) => deflateSync(b)],
  ['ASCIIHexDecode', (b) => latin1(`${b.toString('hex')}>`)],
  ['RunLengthDecode', (b) => runLengthEncode(b)],
];

const decoys: [string, (filter: string) => (keys: string) => string][] = [
  ['a decoy header as a key', (f) => (k) => `<< /Filter /${f} /X 10 0 obj << ${k} >>`],
  ['a decoy header with no key before it', (f) => (k) => `<< /Filter /${f} 10 0 obj << ${k} >>`],
  ['a decoy header of another generation after a comment', (f) => (k) => `<< /Filter /${f} %c\n10 7 obj << ${k} >>`],
  ['a decoy header in a string', (f) => (k) => `<< /Filter /${f} /S (10 0 obj) << ${k} >>`],
  ['a decoy header after an endobj in a string', (f) => (k) => `<< /Filter /${f} /S (endobj) 10 0 obj << ${k} >>`],
  ['a decoy header after an endobj pdf.js skips', (f) => (k) => `<< /Filter /${f} endobj 10 0 obj << ${k} >>`],
];

describe('a filter hidden behind a decoy object header', () => {
  for (const [filter, encode] of encoders)
    for (const [decoy, dict] of decoys)
      for (const typed of [true, false])
        test(`${filter}, ${decoy}${typed ? ', /Type /ObjStm' : ''}: pdf.js runs it, the gate withholds it`, async () => {
          const bytes = hiddenFilterPdf(encode(latin1(inner)), dict(filter), typed);
          expect(await pdfJsOpenScripts(bytes)).toContain('app.alert(1)');
          const { effect, codes } = await decideItem(bytes, 'application/pdf');
          expect(effect).not.toBe('allow');
          expect(codes).toContain('content.uninterpretable');
        });

  test('the same files with no decoy header are read, not withheld', async () => {
    for (const [filter, encode] of encoders) {
      const bytes = hiddenFilterPdf(encode(latin1(inner)), (k) => `<< /Filter /${filter} ${k} >>`, true);
      expect(await pdfJsOpenScripts(bytes)).toContain('app.alert(1)');
      const scan = scanPdf(bytes);
      expect(scan.uninterpretable).toBeNull();
      expect(scan.active).not.toBeNull();
    }
  });

  test('ordinary objects before a stream are no decoy', () => {
    const body = '<< /Type /Catalog /Pages 2 0 R >>';
    const bytes = latin1(
      `%PDF-1.7\n1 0 obj\n${body}\nendobj\n2 0 obj\n[ << /A 1 >> (x) ]\nendobj\n3 0 obj\n<< /Length 3 /F [/A] >>\nstream\nabc\nendstream\nendobj\n%%EOF\n`,
    );
    expect(scanPdf(bytes).uninterpretable).toBeNull();
  });
});
