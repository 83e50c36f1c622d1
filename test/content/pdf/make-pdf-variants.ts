// PDFs built object by object with a correct cross-reference stream, so pdf.js reads every object by its offset
// exactly as a viewer does. Object 4 is the OpenAction's JavaScript action, stored compressed in the object
// stream 5 (PDF 1.5); the pieces a variant changes are the object stream's dictionary, the bytes after its
// `stream` keyword and its object header.
import { deflateSync } from 'node:zlib';

/** The script every variant's OpenAction runs. */
export const openActionScript = 'app.alert(1)';

/** How one variant writes the object stream holding the JavaScript action. */
export interface ObjStmShape {
  /** the object header's generation as written (`0`, `-0`, `+0`, `0.0`) */
  generation?: string;
  /** extra dictionary text after `/Length n` (a string holding `<<`, a comment) */
  dictTail?: string;
  /** the bytes between `stream` and the data (must end with an end of line) */
  afterKeyword?: string;
  /** hide the object stream inside the raw data of an image XObject */
  insideImage?: boolean;
}

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

/** A PDF whose OpenAction (object 4, in the object stream 5) runs `openActionScript`. */
export function pdfWithHiddenOpenAction(shape: ObjStmShape = {}): Buffer {
  const action = `<< /S /JavaScript /JS (${openActionScript}) >>`;
  const index = '4 0 ';
  const packed = deflateSync(latin1(index + action));
  const objStm = Buffer.concat([
    latin1(
      `5 ${shape.generation ?? '0'} obj\n<< /Type /ObjStm /N 1 /First ${index.length} /Filter /FlateDecode /Length ${packed.length}${shape.dictTail ?? ''} >>\nstream${shape.afterKeyword ?? '\n'}`,
    ),
    packed,
    latin1('\nendstream\nendobj\n'),
  ]);
  const parts: Buffer[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  const offsets = new Map<number, number>();
  let length = parts[0]?.length ?? 0;
  const add = (num: number | null, body: Buffer): void => {
    if (num !== null) offsets.set(num, length);
    parts.push(body);
    length += body.length;
  };
  add(1, latin1('1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>\nendobj\n'));
  add(2, latin1('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'));
  add(3, latin1('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>\nendobj\n'));
  if (shape.insideImage === true) {
    // an image whose pixel data is the whole object stream: a scanner that skips image data never sees it,
    // while pdf.js reads object 5 at its offset inside that data
    const head = latin1(
      `7 0 obj\n<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /ColorSpace /DeviceGray /Length ${objStm.length} >>\nstream\n`,
    );
    add(7, head);
    add(5, objStm);
    add(null, latin1('\nendstream\nendobj\n'));
  } else {
    add(5, objStm);
  }
  // the cross-reference stream: type 1 (offset) for plain objects, type 2 (object stream, index) for object 4
  const size = 8;
  const xrefAt = length;
  const rows: Buffer[] = [];
  for (let n = 0; n < size; n++) {
    const row = Buffer.alloc(7);
    if (n === 4) {
      row[0] = 2;
      row.writeUInt32BE(5, 1);
      row.writeUInt16BE(0, 5);
    } else if (n === 6) {
      row[0] = 1;
      row.writeUInt32BE(xrefAt, 1);
    } else if (offsets.has(n)) {
      row[0] = 1;
      row.writeUInt32BE(offsets.get(n) ?? 0, 1);
    } else {
      row.writeUInt16BE(0xffff, 5);
    }
    rows.push(row);
  }
  const table = Buffer.concat(rows);
  add(
    6,
    Buffer.concat([
      latin1(`6 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] /Root 1 0 R /Length ${table.length} >>\nstream\n`),
      table,
      latin1('\nendstream\nendobj\n'),
    ]),
  );
  add(null, latin1(`startxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}
