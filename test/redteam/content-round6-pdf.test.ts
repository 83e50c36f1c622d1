// Content red team round 6 for PDF readers (issue 41): what pdf.js resolves through references and abbreviations
// that a reader of literal keys may not. An object stream whose `/Filter` is an indirect object (a name, a name in an
// array, an array), an object stream filtered through `/F` (pdf.js reads `F` before `Filter`) and one with no `/Type`;
// a document action's `/Next` chain; a launch action; a link whose URI is a string by reference (plain or packed in an
// object stream); an action whose `/S` is a name by reference (JavaScript, Launch), or whose `/S` and `/JS` are both
// objects packed in an object stream; a JavaScript name tree behind `/Kids`. The oracle is pdf.js 4 itself
// (pdfjs-oracle.ts): an attack is live when it reports a script or a non-web link target. Controls are the same shapes
// made harmless (an https link by reference, a page content stream whose filter is by reference, a `/Next` chain of
// `GoTo` actions, pages packed in an object stream): pdf.js finds nothing active and the gate allows each. (Tried and
// not live in pdf.js, so no case: `SubmitForm`, `ImportData` and `GoToE` actions with a `javascript:` file, a URI
// given as a stream.)
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { pdfJsActiveContent } from '../content/pdf/pdfjs-oracle.ts';
import { profileGate } from '../content/consumers/profile-gate.ts';
import { judgeSendings, letThrough, refused, sendingsOf, shippedGate } from '../content/redteam/judge-variants.ts';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

/** An object: its dictionary or value text, or a stream's dictionary entries (`LEN`: its length) and data. */
type PdfObject = string | readonly [dict: string, data: Buffer];

/**
 * A PDF 1.5 with a cross-reference stream (object 21): `plain` objects at their offsets, `packed` ones in the object
 * stream 20 (deflated unless `objStmDict` says otherwise), so pdf.js reads each object as a viewer does.
 */
function pdf(
  plain: Record<number, PdfObject>,
  packed: Record<number, string> = {},
  objStmDict: (length: number) => string = (length) => `/Type /ObjStm /Filter /FlateDecode /Length ${length}`,
): Buffer {
  const parts: Buffer[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let length = parts[0]?.length ?? 0;
  const offsets = new Map<number, number>();
  const add = (num: number | null, bytes: Buffer): void => {
    if (num !== null) offsets.set(num, length);
    parts.push(bytes);
    length += bytes.length;
  };
  for (const [key, value] of Object.entries(plain)) {
    const num = Number(key);
    if (typeof value === 'string') add(num, latin1(`${num} 0 obj\n${value}\nendobj\n`));
    else {
      const [dict, data] = value;
      const head = latin1(`${num} 0 obj\n<< ${dict.replace('LEN', String(data.length))} >>\nstream\n`);
      add(num, Buffer.concat([head, data, latin1('\nendstream\nendobj\n')]));
    }
  }
  const packedNums = Object.keys(packed).map(Number);
  if (packedNums.length > 0) {
    let index = '';
    let body = '';
    for (const num of packedNums) {
      index += `${num} ${body.length} `;
      body += `${packed[num]}\n`;
    }
    const data = deflateSync(latin1(index + body));
    const head = latin1(
      `20 0 obj\n<< ${objStmDict(data.length)} /N ${packedNums.length} /First ${index.length} >>\nstream\n`,
    );
    add(20, Buffer.concat([head, data, latin1('\nendstream\nendobj\n')]));
  }
  const size = 22;
  const xrefAt = length;
  const rows: Buffer[] = [];
  for (let num = 0; num < size; num++) {
    const row = Buffer.alloc(7);
    const at = packedNums.indexOf(num);
    if (at >= 0) {
      row[0] = 2;
      row.writeUInt32BE(20, 1);
      row.writeUInt16BE(at, 5);
    } else if (num === 21 || offsets.has(num)) {
      row[0] = 1;
      row.writeUInt32BE(num === 21 ? xrefAt : (offsets.get(num) ?? 0), 1);
    } else row.writeUInt16BE(0xffff, 5);
    rows.push(row);
  }
  const table = Buffer.concat(rows);
  const xref = latin1(
    `21 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] /Root 1 0 R /Length ${table.length} >>\nstream\n`,
  );
  add(21, Buffer.concat([xref, table, latin1('\nendstream\nendobj\n')]));
  add(null, latin1(`startxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}

const pages = {
  2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>',
};
const linkPage = { 2: pages[2], 3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Annots [6 0 R] >>' };
const catalog = (extra = ''): string => `<< /Type /Catalog /Pages 2 0 R ${extra} >>`;
const link = (action: string): string => `<< /Type /Annot /Subtype /Link /Rect [0 0 9 9] /A ${action} >>`;
const js = '<< /S /JavaScript /JS (app.alert\\(1\\)) >>';
const opens = catalog('/OpenAction 4 0 R');

// key, name, bytes
const attacks: [string, string, Buffer][] = [
  [
    'objstm-filter-by-reference',
    'an object stream whose filter is a name by reference',
    pdf({ 1: opens, ...pages, 9: '/FlateDecode' }, { 4: js }, (n) => `/Type /ObjStm /Filter 9 0 R /Length ${n}`),
  ],
  [
    'objstm-filter-array-of-reference',
    'an object stream whose filter array holds a reference',
    pdf({ 1: opens, ...pages, 9: '/FlateDecode' }, { 4: js }, (n) => `/Type /ObjStm /Filter [9 0 R] /Length ${n}`),
  ],
  [
    'objstm-filter-array-by-reference',
    'an object stream whose filter array is by reference',
    pdf({ 1: opens, ...pages, 9: '[/FlateDecode]' }, { 4: js }, (n) => `/Type /ObjStm /Filter 9 0 R /Length ${n}`),
  ],
  [
    'objstm-filter-as-F',
    'an object stream filtered through /F (read before /Filter)',
    pdf({ 1: opens, ...pages }, { 4: js }, (n) => `/Type /ObjStm /F /FlateDecode /Length ${n}`),
  ],
  [
    'objstm-without-type',
    'an object stream with no /Type',
    pdf({ 1: opens, ...pages }, { 4: js }, (n) => `/Filter /FlateDecode /Length ${n}`),
  ],
  [
    'catalog-aa-next',
    "a document action's /Next to a script",
    pdf({ 1: catalog('/AA << /WC << /S /GoTo /D [3 0 R /Fit] /Next 5 0 R >> >>'), ...pages, 5: js }),
  ],
  [
    'link-launch',
    'a link that launches a program',
    pdf({ 1: catalog(), ...linkPage, 6: link('<< /S /Launch /F (calc.exe) >>') }),
  ],
  [
    'uri-by-reference',
    'a link whose javascript: URI is a string by reference',
    pdf({ 1: catalog(), ...linkPage, 6: link('<< /S /URI /URI 7 0 R >>'), 7: '(javascript:app.alert\\(1\\))' }),
  ],
  [
    'uri-packed-hex',
    'a link whose javascript: URI is a hex string packed in an object stream',
    pdf(
      { 1: catalog(), ...linkPage, 6: link('<< /S /URI /URI 7 0 R >>') },
      { 7: `<${Buffer.from('javascript:app.alert(1)').toString('hex')}>` },
    ),
  ],
  [
    'action-type-by-reference',
    'an open action whose /S is /JavaScript by reference',
    pdf({ 1: opens, ...pages, 4: '<< /S 9 0 R /JS (app.alert\\(1\\)) >>', 9: '/JavaScript' }),
  ],
  [
    'launch-type-by-reference',
    'a link whose /S is /Launch by reference',
    pdf({ 1: catalog(), ...linkPage, 6: link('<< /S 9 0 R /F (calc.exe) >>'), 9: '/Launch' }),
  ],
  [
    'action-parts-packed',
    'an open action whose /S and /JS are packed objects',
    pdf({ 1: opens, ...pages }, { 4: '<< /S 5 0 R /JS 7 0 R >>', 5: '/JavaScript', 7: '(app.alert\\(1\\))' }),
  ],
  [
    'names-tree-kids',
    'a JavaScript name tree behind /Kids',
    pdf({
      1: catalog('/Names << /JavaScript 8 0 R >>'),
      ...pages,
      8: '<< /Kids [11 0 R] >>',
      11: '<< /Limits [(a) (z)] /Names [(m) 12 0 R] >>',
      12: js,
    }),
  ],
];

const content = latin1('BT /F1 12 Tf 1 1 Td (notes) Tj ET');
const controls: [string, string, Buffer][] = [
  [
    'https-uri-by-reference',
    'a link whose https URI is a string by reference',
    pdf({ 1: catalog(), ...linkPage, 6: link('<< /S /URI /URI 7 0 R >>'), 7: '(https://example.com/guide)' }),
  ],
  [
    'content-filter-by-reference',
    'a page whose content stream filter is by reference',
    pdf({
      1: catalog(),
      2: pages[2],
      3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Contents 5 0 R >>',
      5: ['/Filter 9 0 R /Length LEN', deflateSync(content)],
      9: '/FlateDecode',
    }),
  ],
  [
    'goto-next-chain',
    "an open action's /Next chain of GoTo actions",
    pdf({
      1: catalog('/OpenAction << /S /GoTo /D [3 0 R /Fit] /Next 5 0 R >>'),
      ...pages,
      5: '<< /S /GoTo /D [3 0 R /FitH 10] >>',
    }),
  ],
  ['pages-packed', 'the page tree packed in an object stream', pdf({ 1: catalog() }, { 2: pages[2], 3: pages[3] })],
];

const sendings = sendingsOf(
  'guide://docs/report',
  ['.pdf', ''],
  ['application/pdf', 'application/octet-stream', undefined],
);
let slowest = { key: '', ms: 0 };
// a control's octet-stream sendings are judged with that type admitted (the shipped policy refuses it by name)
const octetAdmitted = profileGate(undefined, ['application/octet-stream']);
async function judged(key: string, bytes: Buffer, gate = shippedGate) {
  const before = process.cpuUsage();
  const verdicts = await judgeSendings({ blob: bytes }, sendings, gate);
  const used = process.cpuUsage(before);
  if ((used.user + used.system) / 1000 > slowest.ms) slowest = { key, ms: (used.user + used.system) / 1000 };
  return verdicts;
}

describe('content round 6: pdf.js finds each attack active', () => {
  test.for(attacks.map(([key, name, bytes]) => ({ key, name, bytes })))('$key: $name', async ({ bytes }) => {
    expect(await pdfJsActiveContent(bytes)).not.toEqual([]);
  });
});

describe('content round 6: the shipped profile withholds each pdf however it is sent', () => {
  test.for(attacks.map(([key, name, bytes]) => ({ key, name, bytes })))('$key: $name', async ({ key, bytes }) => {
    expect(letThrough(await judged(key, bytes))).toEqual([]);
  });
});

describe('content round 6: pdf.js finds nothing active in each control, the shipped profile allows it', () => {
  test.for(controls.map(([key, name, bytes]) => ({ key, name, bytes })))('$key: $name', async ({ key, bytes }) => {
    expect(await pdfJsActiveContent(bytes)).toEqual([]);
    expect(refused(await judged(key, bytes, octetAdmitted))).toEqual([]);
  });
  afterAll(() => {
    console.log(`content-round6-pdf: slowest judgement ${slowest.key} ${slowest.ms.toFixed(0)} ms cpu`);
  });
});
