// PDFs whose active objects sit only in object streams nested inside other object streams (issue 41 item 3): the
// outermost object stream is an ordinary file object; each further one is a stream object stored in the one
// around it (pdf.js reads stream objects out of an object stream), compressed on its own, so its objects never
// show in the outer stream's inflated bytes. A cross-reference stream names every object by its holder, so pdf.js
// reads them exactly as a viewer does.
import { deflateSync } from 'node:zlib';

/** The active content a nested PDF carries, or none (`none`, `uri-https`: benign controls). */
export type NestedActive =
  | 'open-action-script'
  | 'launch'
  | 'embedded-file'
  | 'uri-javascript'
  | 'uri-javascript-by-reference'
  | 'xfa'
  | 'rich-media'
  | 'none'
  | 'uri-https';

/** A filter the outermost object stream may be written with. */
export type OuterFilter = 'FlateDecode' | 'ASCIIHexDecode' | 'ASCII85Decode';

/** How one nested PDF is written. */
export interface NestedShape {
  active: NestedActive;
  /** object streams around the active objects: 1 a plain object stream, 2 one stored in another, … */
  levels: number;
  /** the outermost object stream's filters, in the order a reader undoes them (default `[FlateDecode]`) */
  outerFilters?: readonly OuterFilter[];
  /** the outermost object stream written otherwise: its `/Filter` value, more dictionary (`/DecodeParms …`) and its encoder */
  outerEncoding?: { filter: string; dict: string; encode: (data: Buffer) => Buffer };
  /** every inner object stream names the one around it by `/Extends` */
  extendsOuter?: boolean;
  /** the cross-reference stream is compressed (FlateDecode with the PNG Up predictor) */
  compressedXref?: boolean;
}

/** The script the OpenAction of `open-action-script` runs. */
export const nestedScript = 'app.alert("nested")';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

// the objects (number → body) the active kind puts in the innermost object stream, and what catalog and page add
function activeObjects(active: NestedActive): { objects: [number, Buffer][]; catalog: string; page: string } {
  const dict = (n: number, body: string): [number, Buffer] => [n, latin1(body)];
  const stream = (n: number, head: string, data: string): [number, Buffer] => [
    n,
    latin1(`<< ${head} /Length ${data.length} >>\nstream\n${data}\nendstream`),
  ];
  const annot = (action: string): [number, Buffer] =>
    dict(20, `<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Border [0 0 0] /A ${action} >>`);
  switch (active) {
    case 'open-action-script':
      return {
        objects: [dict(20, `<< /Type /Action /S /JavaScript /JS (${nestedScript}) >>`)],
        catalog: '/OpenAction 20 0 R',
        page: '',
      };
    case 'launch':
      return { objects: [annot('<< /S /Launch /F (calc.exe) >>')], catalog: '', page: '/Annots [20 0 R]' };
    case 'uri-javascript':
      return {
        objects: [annot('<< /S /URI /URI (javascript:app.alert\\(1\\)) >>')],
        catalog: '',
        page: '/Annots [20 0 R]',
      };
    case 'uri-javascript-by-reference':
      return {
        objects: [annot('<< /S /URI /URI 21 0 R >>'), dict(21, '(javascript:app.alert\\(2\\))')],
        catalog: '',
        page: '/Annots [20 0 R]',
      };
    case 'uri-https':
      return {
        objects: [
          annot('<< /S /URI /URI (https://example.com/guide) >>'),
          dict(21, '<< /Title (Packing guide) /Subject (javascript: a primer) >>'),
        ],
        catalog: '',
        page: '/Annots [20 0 R]',
      };
    case 'embedded-file':
      return {
        objects: [
          dict(20, '<< /EmbeddedFiles << /Names [(run.exe) 21 0 R] >> >>'),
          dict(21, '<< /Type /Filespec /F (run.exe) /UF (run.exe) /EF << /F 22 0 R >> >>'),
          stream(22, '/Type /EmbeddedFile', 'MZ this program runs'),
        ],
        catalog: '/Names 20 0 R',
        page: '',
      };
    case 'xfa':
      return {
        objects: [
          dict(20, '<< /Fields [] /XFA [(xdp:xdp) 21 0 R] >>'),
          stream(21, '', '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template/></xdp:xdp>'),
        ],
        catalog: '/AcroForm 20 0 R',
        page: '',
      };
    case 'rich-media':
      return {
        objects: [dict(20, '<< /Type /Annot /Subtype /RichMedia /Rect [0 0 10 10] /RichMediaContent << >> >>')],
        catalog: '',
        page: '/Annots [20 0 R]',
      };
    case 'none':
      return {
        objects: [
          dict(20, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
          dict(21, '<< /Author (the docs team) /Title (Packing guide) >>'),
        ],
        catalog: '',
        page: '/Resources << /Font << /F1 20 0 R >> >>',
      };
  }
}

// an object stream's body (without its dictionary): the `num offset` pairs, then the objects
function objectStreamData(objects: readonly [number, Buffer][]): { data: Buffer; first: number } {
  let offset = 0;
  const pairs: string[] = [];
  for (const [n, body] of objects) {
    pairs.push(`${n} ${offset}`);
    offset += body.length + 1;
  }
  const head = latin1(`${pairs.join(' ')}\n`);
  const parts = [head];
  for (const [, body] of objects) parts.push(body, latin1('\n'));
  return { data: Buffer.concat(parts), first: head.length };
}

function encode(filters: readonly OuterFilter[], data: Buffer): Buffer {
  let out = data;
  // the last filter a reader undoes is applied first
  for (const filter of [...filters].reverse()) {
    if (filter === 'FlateDecode') out = deflateSync(out);
    else if (filter === 'ASCIIHexDecode') out = latin1(`${out.toString('hex')}>`);
    else out = latin1(`${ascii85(out)}~>`);
  }
  return out;
}

function ascii85(data: Buffer): string {
  let text = '';
  for (let i = 0; i < data.length; i += 4) {
    const group = Buffer.alloc(4);
    data.copy(group, 0, i, i + 4);
    const count = Math.min(4, data.length - i);
    let n = group.readUInt32BE(0);
    if (n === 0 && count === 4) {
      text += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode(0x21 + (n % 85)));
      n = Math.floor(n / 85);
    }
    text += digits.slice(0, count + 1).join('');
  }
  return text;
}

/** A PDF whose `active` objects are stored `levels` object streams deep, with a cross-reference stream naming each. */
export function nestedObjectStreamPdf(shape: NestedShape): Buffer {
  const { objects, catalog, page } = activeObjects(shape.active);
  const outer = 10;
  const innermost = outer + shape.levels - 1;
  // holder of each compressed object: [object stream, index]
  const holders = new Map<number, [number, number]>();
  objects.forEach(([n], i) => {
    holders.set(n, [innermost, i]);
  });
  // from the innermost out: each object stream is a stream object stored in the one around it
  let stored: readonly [number, Buffer][] = objects;
  for (let level = innermost; level > outer; level--) {
    const { data, first } = objectStreamData(stored);
    const packed = deflateSync(data);
    const extendsOuter = shape.extendsOuter === true ? ` /Extends ${level - 1} 0 R` : '';
    const body = Buffer.concat([
      latin1(
        `<< /Type /ObjStm /N ${stored.length} /First ${first}${extendsOuter} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
      ),
      packed,
      latin1('\nendstream'),
    ]);
    holders.set(level, [level - 1, 0]);
    stored = [[level, body]];
  }
  const { data, first } = objectStreamData(stored);
  const filters = shape.outerFilters ?? ['FlateDecode'];
  const custom = shape.outerEncoding;
  const packed = custom === undefined ? encode(filters, data) : custom.encode(data);
  const filterValue =
    custom !== undefined
      ? `${custom.filter}${custom.dict}`
      : filters.length === 1
        ? `/${filters[0]}`
        : `[${filters.map((f) => `/${f}`).join(' ')}]`;

  const parts: Buffer[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  const offsets = new Map<number, number>();
  let length = parts[0]?.length ?? 0;
  const add = (n: number | null, body: Buffer): void => {
    if (n !== null) offsets.set(n, length);
    parts.push(body);
    length += body.length;
  };
  add(1, latin1(`1 0 obj\n<< /Type /Catalog /Pages 2 0 R ${catalog} >>\nendobj\n`));
  add(2, latin1('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'));
  add(3, latin1(`3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] ${page} >>\nendobj\n`));
  add(
    outer,
    Buffer.concat([
      latin1(
        `${outer} 0 obj\n<< /Type /ObjStm /N ${stored.length} /First ${first} /Filter ${filterValue} /Length ${packed.length} >>\nstream\n`,
      ),
      packed,
      latin1('\nendstream\nendobj\n'),
    ]),
  );
  const xrefNumber = 30;
  const size = xrefNumber + 1;
  const xrefAt = length;
  const rows: Buffer[] = [];
  for (let n = 0; n < size; n++) {
    const row = Buffer.alloc(7);
    const holder = holders.get(n);
    if (holder !== undefined) {
      row[0] = 2;
      row.writeUInt32BE(holder[0], 1);
      row.writeUInt16BE(holder[1], 5);
    } else if (n === xrefNumber || offsets.has(n)) {
      row[0] = 1;
      row.writeUInt32BE(n === xrefNumber ? xrefAt : (offsets.get(n) ?? 0), 1);
    } else {
      row.writeUInt16BE(0xffff, 5);
    }
    rows.push(row);
  }
  const table = shape.compressedXref === true ? deflateSync(pngUp(rows)) : Buffer.concat(rows);
  const xrefFilter =
    shape.compressedXref === true ? ' /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 7 >>' : '';
  add(
    xrefNumber,
    Buffer.concat([
      latin1(
        `${xrefNumber} 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] /Root 1 0 R${xrefFilter} /Length ${table.length} >>\nstream\n`,
      ),
      table,
      latin1('\nendstream\nendobj\n'),
    ]),
  );
  add(null, latin1(`startxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}

// PNG predictor rows with the Up filter: each byte less the one above it
function pngUp(rows: readonly Buffer[]): Buffer {
  const out: Buffer[] = [];
  let above: Buffer = Buffer.alloc(rows[0]?.length ?? 0);
  for (const row of rows) {
    const line = Buffer.alloc(row.length + 1);
    line[0] = 2;
    for (let i = 0; i < row.length; i++) line[i + 1] = ((row[i] ?? 0) - (above[i] ?? 0)) & 0xff;
    out.push(line);
    above = row;
  }
  return Buffer.concat(out);
}
