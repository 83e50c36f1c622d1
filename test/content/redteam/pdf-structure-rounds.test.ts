// A fresh round for the PDF reader (issue 41): actions pdf.js finds through the document's structure rather than
// where a keyword scan looks (an action type or script by indirect reference, a name tree's kids, the catalog's
// additional actions, link targets written with octal escapes, line continuations or by reference, a launch link)
// and PDFs after 4 KiB of the image formats and text the earlier rounds did not try (WebP, BMP, AVIF, CSV, an SVG
// comment). pdf.js 4 is the oracle: an attack is live when it reports a script, a non-web link target or a launch;
// each is withheld by the shipped profile however it is sent. Controls run nothing in pdf.js and are allowed.
import { describe, expect, test } from 'vitest';
import { makeAvif, makeBmp, makePdf, makeWebp } from '../../fixtures/make-bytes.ts';
import { pdfJsActiveContent, pdfJsOpenScripts } from '../pdf/pdfjs-oracle.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from './judge-variants.ts';

// a PDF of `objects` (object 1 the catalog) with a classic xref table and trailer
function pdf(objects: readonly string[]): Buffer {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
const pages = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>';
const pageWithLink = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>';
const link = (action: string) => `<< /Type /Annot /Subtype /Link /Rect [0 0 200 200] /A ${action} >>`;
const catalog = '<< /Type /Catalog /Pages 2 0 R >>';
const FOUR_KIB = Buffer.alloc(4096, 0x20);
const scripted = makePdf({ activeName: 'JavaScript' });

const pdfSendings = sendingsOf(
  'guide://docs/report',
  ['.pdf', '.PDF', ''],
  ['application/pdf', 'application/octet-stream', undefined],
);
const imageSendings = (type: string, ext: string): Sending[] => [
  ...sendingsOf('guide://media/photo', [ext, ext.toUpperCase(), ''], [type, 'application/octet-stream', undefined]),
  ['guide://media/photo.pdf', type],
];

// name, bytes, sendings
const attacks: [string, Buffer, Sending[]][] = [
  [
    'an OpenAction whose /S names JavaScript by reference',
    pdf([
      '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
      pages,
      page,
      '<< /Type /Action /S 5 0 R /JS (app.alert\\(1\\)) >>',
      '/JavaScript',
    ]),
    pdfSendings,
  ],
  [
    'an OpenAction whose script is a string by reference',
    pdf([
      '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
      pages,
      page,
      '<< /S /JavaScript /JS 5 0 R >>',
      '(app.alert\\(1\\))',
    ]),
    pdfSendings,
  ],
  [
    'a document script in a name tree kid',
    pdf([
      '<< /Type /Catalog /Pages 2 0 R /Names << /JavaScript 4 0 R >> >>',
      pages,
      page,
      '<< /Kids [6 0 R] >>',
      '<< /S /JavaScript /JS (app.alert\\(1\\)) >>',
      '<< /Names [(a) 5 0 R] /Limits [(a) (a)] >>',
    ]),
    pdfSendings,
  ],
  [
    'a catalog additional action on close',
    pdf(['<< /Type /Catalog /Pages 2 0 R /AA << /WC << /S /JavaScript /JS (app.alert\\(1\\)) >> >> >>', pages, page]),
    pdfSendings,
  ],
  [
    'a link to a javascript: uri written with an octal escape',
    pdf([catalog, pages, pageWithLink, link('<< /S /URI /URI (\\152avascript:alert\\(1\\)) >>')]),
    pdfSendings,
  ],
  [
    'a link to a javascript: uri by reference',
    pdf([catalog, pages, pageWithLink, link('<< /S /URI /URI 5 0 R >>'), '(javascript:alert\\(1\\))']),
    pdfSendings,
  ],
  [
    'a link to a javascript: uri broken by a line continuation',
    pdf([catalog, pages, pageWithLink, link('<< /S /URI /URI (java\\\nscript:alert\\(1\\)) >>')]),
    pdfSendings,
  ],
  [
    'a link that launches a program',
    pdf([catalog, pages, pageWithLink, link('<< /S /Launch /F (calc.exe) >>')]),
    pdfSendings,
  ],
  ['a pdf after 4 KiB of webp', Buffer.concat([makeWebp(), FOUR_KIB, scripted]), imageSendings('image/webp', '.webp')],
  ['a pdf after 4 KiB of bmp', Buffer.concat([makeBmp(), FOUR_KIB, scripted]), imageSendings('image/bmp', '.bmp')],
  ['a pdf after 4 KiB of avif', Buffer.concat([makeAvif(), FOUR_KIB, scripted]), imageSendings('image/avif', '.avif')],
  [
    'a pdf after 4 KiB of csv',
    Buffer.concat([Buffer.from(`id,value\n${'1,2\n'.repeat(1100)}`), scripted]),
    sendingsOf('guide://data/table', ['.csv', ''], ['text/csv', 'text/plain', undefined]),
  ],
  [
    'a pdf in an svg comment after 4 KiB',
    Buffer.concat([
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><!--${' '.repeat(4096)}`),
      scripted,
      Buffer.from('--></svg>'),
    ]),
    sendingsOf('guide://art/logo', ['.svg', ''], ['image/svg+xml', undefined]),
  ],
];

const controls: [string, Buffer, Sending[]][] = [
  [
    'a pdf linking a web page',
    pdf([catalog, pages, pageWithLink, link('<< /S /URI /URI (https://example.com/report) >>')]),
    sendingsOf('guide://docs/report', ['.pdf', ''], ['application/pdf', undefined]),
  ],
  [
    'a pdf with an outline and a go-to action',
    pdf([
      '<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R /OpenAction [3 0 R /Fit] >>',
      pages,
      page,
      '<< /Type /Outlines /First 5 0 R /Last 5 0 R /Count 1 >>',
      '<< /Title (Summary) /Parent 4 0 R /A << /S /GoTo /D [3 0 R /Fit] >> >>',
    ]),
    sendingsOf('guide://docs/report', ['.pdf', ''], ['application/pdf', undefined]),
  ],
  [
    'a webp over 4 KiB',
    Buffer.concat([makeWebp(), FOUR_KIB]),
    sendingsOf('guide://media/photo', ['.webp', ''], ['image/webp']),
  ],
];

// pdf.js's reading: scripts, non-web link targets, launches, attachments (pdfJsActiveContent); a pdf after other
// bytes is opened by its trailer (pdfJsOpenScripts)
async function liveInPdfJs(bytes: Buffer): Promise<string[]> {
  const found = await pdfJsActiveContent(bytes).catch(() => [] as string[]);
  return found.length > 0 ? found : await pdfJsOpenScripts(bytes).catch(() => []);
}

describe('pdf.js finds each attack active, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([name, bytes, sendings]) => ({ name, bytes, sendings })))(
    '$name',
    { timeout: 60_000 },
    async ({ bytes, sendings }) => {
      expect(await liveInPdfJs(bytes)).not.toEqual([]);
      expect(letThrough(await judgeSendings({ blob: bytes }, sendings))).toEqual([]);
    },
  );
});

describe('pdf.js finds nothing active in each control, the shipped profile allows it however it is sent', () => {
  test.for(controls.map(([name, bytes, sendings]) => ({ name, bytes, sendings })))(
    '$name',
    { timeout: 60_000 },
    async ({ bytes, sendings }) => {
      expect(await liveInPdfJs(bytes)).toEqual([]);
      expect(refused(await judgeSendings({ blob: bytes }, sendings))).toEqual([]);
    },
  );
});
