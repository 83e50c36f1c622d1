// The differential property of the PDF reader consumer (issue 41 item 6): PDFs generated from the places pdf.js looks
// for something active (OpenAction, the JavaScript name tree, the catalog's and the page's additional actions, a
// catalog `/A`, `/Next` chains, link and widget annotations, URI and GoToR targets, attachments, XFA), each written
// the ways the format allows (escaped names, literal, hex, octal and UTF-16 strings, script streams plain or
// compressed, by reference or inline, in an object stream, in an incremental update, with no xref table) are opened
// by pdf.js itself, the oracle; whenever pdf.js exposes a script, a script-scheme link target, an attachment or an
// XFA form, the gate must not allow the bytes.
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: PdfJs | undefined;

/** Where the generated document puts its action or target. */
export type Place =
  | 'open-action'
  | 'names-tree'
  | 'catalog-aa'
  | 'catalog-a'
  | 'page-aa'
  | 'next-chain'
  | 'link-a'
  | 'widget-aa'
  | 'link-uri'
  | 'gotor'
  | 'attachment'
  | 'file-annotation'
  | 'xfa'
  | 'web-link'
  | 'none';

/** How a string value is written. */
export type StringForm = 'literal' | 'hex' | 'octal' | 'utf16' | 'continued';

/** How the document is laid out. */
export type Layout = 'xref' | 'object-stream' | 'update' | 'no-xref';

/** One generated document. */
export interface PdfShape {
  place: Place;
  script: StringForm | 'stream' | 'flate-stream';
  target: StringForm;
  scheme: string;
  escapeNames: boolean;
  byReference: boolean;
  layout: Layout;
}

const escapeAt = (name: string, at: number): string =>
  `${name.slice(0, at)}#${name.charCodeAt(at).toString(16).padStart(2, '0')}${name.slice(at + 1)}`;

// a name written plainly or with its last letter escaped
const nameOf = (shape: PdfShape, name: string): string =>
  `/${shape.escapeNames ? escapeAt(name, name.length - 1) : name}`;

/** `text` as a PDF string in `form`. */
export function pdfString(text: string, form: StringForm): string {
  const literal = (s: string): string => s.replace(/[\\()]/g, (c) => `\\${c}`);
  switch (form) {
    case 'literal':
      return `(${literal(text)})`;
    case 'hex':
      return `<${Buffer.from(text, 'latin1').toString('hex')}>`;
    case 'octal':
      return `(${[...text].map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`).join('')})`;
    case 'utf16':
      return `<feff${Buffer.from(text, 'utf16le').swap16().toString('hex')}>`;
    case 'continued':
      // a backslash at the end of a line joins the lines (PDF 32000 §7.3.4.2)
      return `(${literal(text.slice(0, 4))}\\\n${literal(text.slice(4))})`;
  }
}

/** The script every generated action carries. */
export const pdfScript = 'app.alert(1)';

interface Objects {
  list: string[];
  add(body: string): number;
}

function objects(): Objects {
  const list: string[] = [];
  return {
    list,
    add(body) {
      list.push(body);
      return list.length;
    },
  };
}

// the value of `key` in a dictionary: inline, or a reference to an object holding it
function valueOf(objs: Objects, shape: PdfShape, body: string): string {
  return shape.byReference ? `${objs.add(body)} 0 R` : body;
}

function scriptAction(objs: Objects, shape: PdfShape): string {
  const js =
    shape.script === 'stream' || shape.script === 'flate-stream'
      ? `${objs.add(scriptStream(shape))} 0 R`
      : pdfString(pdfScript, shape.script);
  return `<< ${nameOf(shape, 'S')} ${nameOf(shape, 'JavaScript')} ${nameOf(shape, 'JS')} ${js} >>`;
}

function scriptStream(shape: PdfShape): string {
  if (shape.script === 'flate-stream') {
    const data = deflateSync(Buffer.from(pdfScript)).toString('latin1');
    return `<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n${data}\nendstream`;
  }
  return `<< /Length ${pdfScript.length} >>\nstream\n${pdfScript}\nendstream`;
}

const target = (shape: PdfShape): string => pdfString(`${shape.scheme}app.alert(1)`, shape.target);

interface Parts {
  catalog: string[];
  page: string[];
  annots: string[];
}

// the catalog, page and annotation entries that put the shape's action in its place
function place(objs: Objects, shape: PdfShape): Parts {
  const parts: Parts = { catalog: [], page: [], annots: [] };
  const rect = '/Rect [10 10 200 40]';
  const annot = (entries: string): void => {
    parts.annots.push(`${objs.add(`<< /Type /Annot ${rect} ${entries} >>`)} 0 R`);
  };
  switch (shape.place) {
    case 'open-action':
      parts.catalog.push(`${nameOf(shape, 'OpenAction')} ${valueOf(objs, shape, scriptAction(objs, shape))}`);
      break;
    case 'names-tree': {
      const tree = valueOf(objs, shape, `<< /Names [(doc) ${valueOf(objs, shape, scriptAction(objs, shape))}] >>`);
      parts.catalog.push(`/Names << ${nameOf(shape, 'JavaScript')} ${tree} >>`);
      break;
    }
    case 'catalog-aa':
      parts.catalog.push(`/AA << /WC ${valueOf(objs, shape, scriptAction(objs, shape))} >>`);
      break;
    case 'catalog-a':
      parts.catalog.push(`/A ${valueOf(objs, shape, scriptAction(objs, shape))}`);
      break;
    case 'page-aa':
      parts.page.push(`/AA << /O ${valueOf(objs, shape, scriptAction(objs, shape))} >>`);
      break;
    case 'next-chain': {
      const next = valueOf(objs, shape, scriptAction(objs, shape));
      parts.page.push(`/AA << /O << /S /URI /URI (https://example.com/) /Next [${next}] >> >>`);
      break;
    }
    case 'link-a':
      annot(`/Subtype /Link /A ${valueOf(objs, shape, scriptAction(objs, shape))}`);
      break;
    case 'widget-aa':
      annot(
        `/Subtype /Widget /FT /Btn /Ff 65536 /T (go) /AA << /U ${valueOf(objs, shape, scriptAction(objs, shape))} >>`,
      );
      break;
    case 'link-uri':
      annot(`/Subtype /Link /A ${valueOf(objs, shape, `<< /S /URI ${nameOf(shape, 'URI')} ${target(shape)} >>`)}`);
      break;
    case 'gotor':
      annot(`/Subtype /Link /A ${valueOf(objs, shape, `<< /S /GoToR /F ${target(shape)} /D [0 /Fit] >>`)}`);
      break;
    case 'attachment': {
      const file = `<< /Type /Filespec /F (a.txt) /UF (a.txt) ${nameOf(shape, 'EF')} << /F ${objs.add('<< /Length 2 >>\nstream\nhi\nendstream')} 0 R >> >>`;
      parts.catalog.push(
        `/Names << ${nameOf(shape, 'EmbeddedFiles')} << /Names [(a.txt) ${valueOf(objs, shape, file)}] >> >>`,
      );
      break;
    }
    case 'file-annotation': {
      const file = `<< /Type /Filespec /F (a.txt) /EF << /F ${objs.add('<< /Length 2 >>\nstream\nhi\nendstream')} 0 R >> >>`;
      annot(`/Subtype ${nameOf(shape, 'FileAttachment')} /FS ${valueOf(objs, shape, file)} /Name /PushPin`);
      break;
    }
    case 'xfa': {
      const xdp =
        '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"/></xdp:xdp>';
      const stream = objs.add(`<< /Length ${xdp.length} >>\nstream\n${xdp}\nendstream`);
      parts.catalog.push(`/AcroForm << /Fields [] ${nameOf(shape, 'XFA')} ${stream} 0 R >>`);
      break;
    }
    case 'web-link':
      annot(`/Subtype /Link /A << /S /URI /URI ${pdfString('https://example.com/guide', shape.target)} >>`);
      break;
    case 'none':
      break;
  }
  return parts;
}

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

/** The document `shape` describes. */
export function generatedPdf(shape: PdfShape): Buffer {
  const objs = objects();
  // 1 catalog, 2 pages, 3 page, 4 contents, 5 font: filled in below, the action's objects after them
  for (let i = 0; i < 5; i++) objs.add('');
  const parts = place(objs, shape);
  const content = 'BT /F1 12 Tf 72 720 Td (hello) Tj ET';
  const annots = parts.annots.length === 0 ? '' : ` /Annots [${parts.annots.join(' ')}]`;
  const inert = '<< /Type /Catalog /Pages 2 0 R >>';
  const catalog = `<< /Type /Catalog /Pages 2 0 R ${parts.catalog.join(' ')} >>`;
  objs.list[0] = shape.layout === 'update' ? inert : catalog;
  objs.list[1] = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  objs.list[2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>${annots} ${parts.page.join(' ')} >>`;
  objs.list[3] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  objs.list[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  if (shape.layout === 'object-stream') return withObjectStream(objs.list);
  const out = writeObjects(objs.list, shape.layout !== 'no-xref');
  if (shape.layout !== 'update') return out.bytes;
  // a second revision that replaces the catalog with the one that holds the action
  const at = out.bytes.length;
  const update = `1 0 obj\n${catalog}\nendobj\n`;
  const xref = at + update.length;
  const tail = `xref\n0 1\n0000000000 65535 f \n1 1\n${String(at).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${objs.list.length + 1} /Root 1 0 R /Prev ${out.xref} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([out.bytes, latin1(update + tail)]);
}

function writeObjects(list: readonly string[], withXref: boolean): { bytes: Buffer; xref: number } {
  let text = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  list.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  if (withXref) {
    const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    text += `xref\n0 ${list.length + 1}\n0000000000 65535 f \n${rows}`;
  }
  text += `trailer\n<< /Size ${list.length + 1} /Root 1 0 R >>\nstartxref\n${withXref ? xref : 0}\n%%EOF\n`;
  return { bytes: latin1(text), xref };
}

// objects 6 and on (the action's) stored compressed in one object stream, found through a cross-reference stream
function withObjectStream(list: readonly string[]): Buffer {
  const direct = list.slice(0, 5);
  const storedNumbers = list.map((body, i) => (i >= 5 && !body.includes('stream\n') ? i + 1 : 0)).filter((n) => n > 0);
  const streams = list.map((body, i) => (i >= 5 && body.includes('stream\n') ? i + 1 : 0)).filter((n) => n > 0);
  let text = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets = new Map<number, number>();
  const write = (num: number, body: string): void => {
    offsets.set(num, text.length);
    text += `${num} 0 obj\n${body}\nendobj\n`;
  };
  direct.forEach((body, i) => write(i + 1, body));
  for (const num of streams) write(num, list[num - 1] as string);
  const objStm = list.length + 1;
  let header = '';
  let data = '';
  for (const num of storedNumbers) {
    header += `${num} ${data.length} `;
    data += `${list[num - 1] as string}\n`;
  }
  const inner = deflateSync(latin1(header + data)).toString('latin1');
  write(
    objStm,
    `<< /Type /ObjStm /N ${storedNumbers.length} /First ${header.length} /Filter /FlateDecode /Length ${inner.length} >>\nstream\n${inner}\nendstream`,
  );
  const xrefNum = objStm + 1;
  const size = xrefNum + 1;
  const rows: Buffer[] = [];
  for (let n = 0; n < size; n++) {
    const row = Buffer.alloc(7);
    const index = storedNumbers.indexOf(n);
    if (n === xrefNum) {
      row[0] = 1;
      row.writeUInt32BE(text.length, 1);
    } else if (index >= 0) {
      row[0] = 2;
      row.writeUInt32BE(objStm, 1);
      row.writeUInt16BE(index, 5);
    } else if (offsets.has(n)) {
      row[0] = 1;
      row.writeUInt32BE(offsets.get(n) as number, 1);
    }
    rows.push(row);
  }
  const xrefData = deflateSync(Buffer.concat(rows)).toString('latin1');
  const at = text.length;
  text += `${xrefNum} 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length ${xrefData.length} >>\nstream\n${xrefData}\nendstream\nendobj\nstartxref\n${at}\n%%EOF\n`;
  return latin1(text);
}

/** Shapes of generated documents. */
export function pdfShapes(): fc.Arbitrary<PdfShape> {
  return fc.record({
    place: fc.constantFrom<Place>(
      'open-action',
      'names-tree',
      'catalog-aa',
      'catalog-a',
      'page-aa',
      'next-chain',
      'link-a',
      'widget-aa',
      'link-uri',
      'gotor',
      'attachment',
      'file-annotation',
      'xfa',
      'web-link',
      'none',
    ),
    script: fc.constantFrom<PdfShape['script']>(
      'literal',
      'hex',
      'octal',
      'utf16',
      'continued',
      'stream',
      'flate-stream',
    ),
    target: fc.constantFrom<StringForm>('literal', 'hex', 'octal', 'utf16', 'continued'),
    scheme: fc.constantFrom(
      'javascript:',
      'JavaScript:',
      ' javascript:',
      'java\tscript:',
      'vbscript:',
      'https://x.test/?',
    ),
    escapeNames: fc.boolean(),
    byReference: fc.boolean(),
    layout: fc.constantFrom<Layout>('xref', 'object-stream', 'update', 'no-xref'),
  });
}

const scriptSchemes = new Set(['javascript:', 'vbscript:', 'livescript:']);

// the scheme a browser reads from a link target (WHATWG URL), or null when it is no absolute url
function schemeOf(url: string): string | null {
  try {
    return new URL(url).protocol;
  } catch {
    return null;
  }
}

/** What pdf.js exposes as active in `bytes`: scripts (document, page 1, its annotations), script-scheme link targets, attachments and an XFA form. [] for an inert document or one pdf.js cannot open. */
export async function activeInPdfJs(bytes: Buffer): Promise<string[]> {
  pdfjs ??= await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 });
  try {
    const doc = await task.promise.catch(() => null);
    if (doc === null) return [];
    const found: string[] = [];
    const scripts = (actions: unknown): void => {
      for (const list of Object.values((actions ?? {}) as Record<string, string[]>))
        for (const script of list) found.push(`script:${script}`);
    };
    scripts(await doc.getJSActions());
    const page = await doc.getPage(1);
    scripts(await page.getJSActions());
    for (const annotation of (await page.getAnnotations()) as Record<string, unknown>[]) {
      scripts(annotation.actions);
      const unsafe = annotation.unsafeUrl;
      if (typeof unsafe === 'string' && scriptSchemes.has(schemeOf(unsafe) ?? '')) found.push(`link:${unsafe}`);
      if (annotation.file !== undefined || annotation.attachment !== undefined) found.push('attachment:annotation');
    }
    for (const name of Object.keys((await doc.getAttachments()) ?? {})) found.push(`attachment:${name}`);
    const { info } = (await doc.getMetadata()) as unknown as { info: Record<string, unknown> };
    if (info.IsXFAPresent === true) found.push('xfa');
    return found;
  } finally {
    await task.destroy();
  }
}
