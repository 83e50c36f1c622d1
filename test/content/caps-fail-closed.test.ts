// Every cap fails closed (issue 39 item 5): each cap and limit in src/content, hit, yields a finding that
// withholds (deny or partial), never "absent" or "skipped". The table is checked against the source: a new
// cap (an exported `max…` constant) or a new `catch` in src/content fails this file until it is listed here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync, deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { maxCfbEntries } from '../../src/content/archive/cfb-kind.ts';
import { maxZipEntries } from '../../src/content/archive/zip-entries.ts';
import { maxMarkerEntryBytes } from '../../src/content/archive/zip-kind.ts';
import { maxNotebookNesting } from '../../src/content/notebook/active-notebook.ts';
import { maxImageParts } from '../../src/content/image/image-structure.ts';
import { maxMetadataInflateBytes } from '../../src/content/image/image-metadata.ts';
import { type ContentJudgement, judgeContent } from '../../src/content/judge-content.ts';
import { maxMarkdownNesting } from '../../src/content/markdown/markdown-renderers.ts';
import {
  defaultMaxInflateBytes,
  defaultMaxInflatedStreams,
  maxHiddenObjectDepth,
  maxObjectStreamNesting,
} from '../../src/content/pdf/pdf-active.ts';
import { maxDictCloseDepth } from '../../src/content/pdf/pdf-dict-close.ts';
import { maxFilterChain } from '../../src/content/pdf/pdf-filters.ts';
import { maxColors, maxColumns, maxRowBytes } from '../../src/content/pdf/pdf-predictor.ts';
import { sniffContent } from '../../src/content/sniff-content.ts';
import { maxNestedMarkup } from '../../src/content/svg-html/active-html.ts';
import { maxMatrixChars } from '../../src/content/pdf/pdf-font-matrix.ts';
import { maxXmlDepth } from '../../src/content/svg-html/active-xml.ts';
import { maxDeclaredEntities, maxEntityExpansionChars } from '../../src/content/svg-html/dtd-entities.ts';
import { maxParserNanos, WorkBudget } from '../../src/content/work-budget.ts';
import { type ConsumerId, consumerProfile } from '../../src/content/consumers/content-consumer.ts';
import { makePng, makeZip } from '../fixtures/make-bytes.ts';
import { nestedObjectStreamPdf } from './pdf/make-nested-pdf.ts';
import { pngPredict } from './pdf/pdf-encoders.ts';

const srcContent = path.resolve(import.meta.dirname, '../../src/content');
const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

// every kind a case below is declared as is allowed, so only the cap's own finding can withhold
const allow = [
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-word.document.macroenabled.12',
  'application/msword',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'application/pdf',
  'text/markdown',
  'text/html',
];

async function judged(
  bytes: Buffer,
  mime: string,
  budget?: WorkBudget,
  reader?: { uri: string; consumers: readonly ConsumerId[] },
): Promise<ContentJudgement> {
  const text = mime.startsWith('text/') || mime === 'image/svg+xml' ? bytes.toString('utf8') : undefined;
  const sniff = await sniffContent(bytes, {
    declaredMime: mime,
    ...(text === undefined ? {} : { text }),
    ...(budget === undefined ? {} : { budget }),
    ...(reader === undefined ? {} : { uri: reader.uri, consumers: consumerProfile(reader.consumers) }),
  });
  return judgeContent(mime, sniff, { allow });
}

const withheldCodes = ['content.uninterpretable', 'content.too-complex', 'content.executable'];

// ---------------------------------------------------------------- inputs that hit each cap

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  return Buffer.concat([head, latin1(type), data, Buffer.alloc(4)]);
}

function pngWith(...chunks: Buffer[]): Buffer {
  const png = makePng();
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), ...chunks, png.subarray(iend)]);
}

// a zip whose one entry is written with `method` and raw `data` as stored
function zipEntryAs(name: string, data: Buffer, method: number): Buffer {
  const zip = makeZip([{ name, data: 'x', deflate: false }]);
  const nameLength = Buffer.byteLength(name);
  const local = Buffer.from(zip.subarray(0, 30));
  local.writeUInt16LE(method, 8);
  local.writeUInt32LE(data.length, 18);
  const central = Buffer.from(zip.subarray(31 + nameLength, 31 + nameLength + 46 + nameLength));
  central.writeUInt16LE(method, 10);
  central.writeUInt32LE(data.length, 20);
  const nameBytes = Buffer.from(name);
  const localPart = Buffer.concat([local, nameBytes, data]);
  const eocd = Buffer.from(zip.subarray(zip.length - 22));
  eocd.writeUInt32LE(central.length, 12);
  eocd.writeUInt32LE(localPart.length, 16);
  return Buffer.concat([localPart, central, eocd]);
}

// a compound file with 4096-byte sectors whose directory chain lists `entries` storages (32 per sector)
function bigCfb(entries: number): Buffer {
  const sector = 4096;
  const dirSectors = Math.ceil((entries + 1) / 32);
  const fatSectors = Math.ceil((dirSectors + 8) / 1024);
  const header = Buffer.alloc(sector);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(4, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(12, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(fatSectors, 0x2c);
  header.writeUInt32LE(fatSectors, 0x30);
  header.writeUInt32LE(0x1000, 0x38);
  header.writeUInt32LE(0xfffffffe, 0x3c);
  header.writeUInt32LE(0xfffffffe, 0x44);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i < fatSectors ? i : 0xffffffff, 0x4c + i * 4);
  const fat = Buffer.alloc(fatSectors * sector, 0xff);
  for (let i = 0; i < fatSectors; i++) fat.writeUInt32LE(0xfffffffd, i * 4);
  for (let i = 0; i < dirSectors; i++)
    fat.writeUInt32LE(i === dirSectors - 1 ? 0xfffffffe : fatSectors + i + 1, (fatSectors + i) * 4);
  const dir = Buffer.alloc(dirSectors * sector);
  for (let i = 0; i <= entries; i++) {
    const at = i * 128;
    const name = Buffer.from(`${i === 0 ? 'Root Entry' : i === 1 ? 'WordDocument' : `s${i}`}\0`, 'utf16le');
    name.copy(dir, at);
    dir.writeUInt16LE(name.length, at + 64);
    dir[at + 66] = i === 0 ? 5 : 1;
  }
  return Buffer.concat([header, fat, dir]);
}

function pdf(...objects: (string | Buffer)[]): Buffer {
  const parts = [latin1('%PDF-1.7\n')];
  objects.forEach((body, i) =>
    parts.push(latin1(`${i + 1} 0 obj\n`), typeof body === 'string' ? latin1(body) : body, latin1('\nendobj\n')),
  );
  parts.push(latin1('trailer\n<< /Root 1 0 R >>\n%%EOF\n'));
  return Buffer.concat(parts);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([latin1(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, latin1('\nendstream')]);
}

// raw streams each holding an object whose stream holds the next, `depth` deep
function hiddenObjects(depth: number): Buffer {
  let inner = latin1('q Q');
  for (let level = depth; level >= 1; level--)
    inner = Buffer.concat([latin1(`q Q\n${100 + level} 0 obj\n`), stream('', inner), latin1('\nendobj\n')]);
  return pdf('<< /Type /Catalog >>', stream('', inner));
}

// a tag with an attribute passes the screen in front of the renderers (`on=` is no handler), so the nesting is
// read (and is all there is)
function nestedMarkdown(levels: number): Buffer {
  return Buffer.from(`${'> '.repeat(levels)}deep <i on=1>\n`);
}

// many empty stored entries, written directly: the end record's 16-bit count cannot say how many (readers walk the directory)
function manyEntryZip(count: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const name = Buffer.from(String(i));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name);
    centrals.push(central, name);
    offset += 30 + name.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(count & 0xffff, 8);
  eocd.writeUInt16LE(count & 0xffff, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

function nestedSrcdoc(levels: number): Buffer {
  let doc = '<b>hello</b>';
  for (let level = 0; level < levels; level++)
    doc = `<iframe srcdoc="${doc.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"></iframe>`;
  return Buffer.from(`<!doctype html>${doc}`);
}

interface CapCase {
  cap: string;
  value: number;
  mime: string;
  bytes: () => Buffer;
  /** the message of the finding that withholds */
  finding: RegExp;
  budget?: () => WorkBudget;
  /** the item's uri and the consumers of the profile, for a cap of an opt-in consumer */
  reader?: { uri: string; consumers: readonly ConsumerId[] };
}

const capCases: CapCase[] = [
  {
    cap: 'maxMarkerEntryBytes (a macro-enabled ooxml package with a 2 MiB comment in `[Content_Types].xml`)',
    value: maxMarkerEntryBytes,
    mime: 'application/vnd.ms-word.document.macroenabled.12',
    bytes: () => {
      const types = `<?xml version="1.0"?><!--${'x'.repeat(2 * 1024 * 1024)}--><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/></Types>`;
      return makeZip([
        { name: '[Content_Types].xml', data: types },
        { name: 'word/document.xml', data: '<doc/>' },
      ]);
    },
    finding: /zip entry `\[Content_Types\]\.xml` cannot be read/,
  },
  {
    cap: 'a marker entry that does not inflate',
    value: 0,
    mime: 'application/zip',
    bytes: () => zipEntryAs('META-INF/MANIFEST.MF', latin1('\xff\xfenot deflate data at all'), 8),
    finding: /zip entry `META-INF\/MANIFEST\.MF` cannot be read/,
  },
  {
    cap: 'a marker entry in a method other than stored or deflate',
    value: 12,
    mime: 'application/zip',
    bytes: () => zipEntryAs('manifest.json', deflateRawSync('{"manifest_version": 3}'), 12),
    finding: /zip entry `manifest\.json` cannot be read/,
  },
  {
    cap: 'maxZipEntries',
    value: maxZipEntries,
    mime: 'application/zip',
    bytes: () => manyEntryZip(maxZipEntries + 1),
    finding: new RegExp(`zip archive lists more than ${maxZipEntries} entries`),
  },
  {
    cap: 'maxCfbEntries',
    value: maxCfbEntries,
    mime: 'application/msword',
    bytes: () => bigCfb(maxCfbEntries + 64),
    finding: new RegExp(`compound file lists more than ${maxCfbEntries} directory entries`),
  },
  {
    cap: 'maxImageParts (png chunks)',
    value: maxImageParts,
    mime: 'image/png',
    bytes: () => pngWith(Buffer.concat(Array.from({ length: maxImageParts }, () => pngChunk('gAMA', Buffer.alloc(0))))),
    finding: /truncated png image/,
  },
  {
    cap: 'maxImageParts (jpeg fill bytes)',
    value: maxImageParts,
    mime: 'image/jpeg',
    bytes: () => Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(maxImageParts + 2, 0xff), Buffer.from([0xd9])]),
    finding: /truncated jpeg image/,
    // 0xFF bytes read as Latin-1 are one long identifier: the script polyglot check would spend the budget first
    budget: () => WorkBudget.unlimited(),
  },
  {
    cap: 'maxNotebookNesting (a possible notebook nested deeper than any viewer reads)',
    value: maxNotebookNesting,
    mime: 'application/json',
    bytes: () => latin1(`{"cells":[],"x":${'['.repeat(maxNotebookNesting + 1)}${']'.repeat(maxNotebookNesting + 1)}}`),
    finding: /notebook/,
  },
  {
    cap: 'maxImageParts (gif sub-blocks)',
    value: maxImageParts,
    mime: 'image/gif',
    bytes: () => {
      const head = Buffer.concat([latin1('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0])]);
      const blocks = Buffer.alloc(2 * (maxImageParts + 1));
      for (let i = 0; i < blocks.length; i += 2) blocks[i] = 1;
      return Buffer.concat([head, Buffer.from([0x21, 0xfe]), blocks, Buffer.from([0, 0x3b])]);
    },
    finding: /truncated gif image/,
  },
  {
    cap: 'maxImageParts (webp chunks)',
    value: maxImageParts,
    mime: 'image/webp',
    bytes: () => {
      const vp8l = Buffer.concat([latin1('VP8L'), Buffer.from([5, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0])]);
      const chunks = Buffer.alloc(8 * (maxImageParts + 1));
      for (let i = 0; i < chunks.length; i += 8) chunks.write('JUNK', i, 'latin1');
      const body = Buffer.concat([latin1('WEBP'), vp8l, chunks]);
      const riff = Buffer.alloc(8);
      riff.write('RIFF', 0, 'latin1');
      riff.writeUInt32LE(body.length, 4);
      return Buffer.concat([riff, body]);
    },
    finding: /truncated webp image/,
  },
  {
    cap: 'maxImageParts (avif top-level boxes)',
    value: maxImageParts,
    mime: 'image/avif',
    bytes: () => {
      const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 20]), latin1('ftypavif'), Buffer.alloc(4), latin1('avif')]);
      const free = Buffer.alloc(8 * (maxImageParts + 1));
      for (let i = 0; i < free.length; i += 8) {
        free.writeUInt32BE(8, i);
        free.write('free', i + 4, 'latin1');
      }
      return Buffer.concat([ftyp, free]);
    },
    finding: /truncated avif image/,
  },
  {
    cap: 'maxMetadataInflateBytes',
    value: maxMetadataInflateBytes,
    mime: 'image/png',
    bytes: () =>
      pngWith(
        pngChunk(
          'zTXt',
          Buffer.concat([latin1('Comment\0\0'), deflateSync(Buffer.alloc(maxMetadataInflateBytes + 1, 0x20))]),
        ),
      ),
    finding: /compressed metadata inflates past/,
  },
  {
    cap: 'compressed png metadata that does not inflate',
    value: 0,
    mime: 'image/png',
    bytes: () => pngWith(pngChunk('zTXt', latin1('Comment\0\0not zlib'))),
    finding: /png compressed metadata does not inflate/,
  },
  {
    cap: 'defaultMaxInflateBytes',
    value: defaultMaxInflateBytes,
    mime: 'application/pdf',
    bytes: () =>
      pdf(
        '<< /Type /Catalog >>',
        // a large enough file for its work budget to cover inflating and reading up to the cap
        stream('', Buffer.alloc(3 * 1024 * 1024, 0x20)),
        stream('/Filter /FlateDecode', deflateSync(Buffer.alloc(defaultMaxInflateBytes + 1))),
      ),
    finding: /inflate past the inspection budget/,
  },
  {
    cap: 'defaultMaxInflatedStreams',
    value: defaultMaxInflatedStreams,
    mime: 'application/pdf',
    bytes: () => {
      const one = stream('/Filter /FlateDecode', deflateSync(latin1('q Q')));
      return pdf('<< /Type /Catalog >>', ...Array.from({ length: defaultMaxInflatedStreams + 1 }, () => one));
    },
    finding: new RegExp(`more than ${defaultMaxInflatedStreams} compressed streams`),
  },
  {
    cap: 'a pdf stream outside an object stream that does not inflate',
    value: 0,
    mime: 'application/pdf',
    bytes: () => pdf('<< /Type /Catalog >>', stream('/Filter /FlateDecode', latin1('not zlib data at all'))),
    finding: /pdf stream does not inflate/,
  },
  {
    cap: 'maxHiddenObjectDepth',
    value: maxHiddenObjectDepth,
    mime: 'application/pdf',
    bytes: () => hiddenObjects(maxHiddenObjectDepth + 2),
    finding: new RegExp(`more than ${maxHiddenObjectDepth} deep`),
  },
  {
    // an earlier object's dictionary nested past it is not known to end before the next stream's keyword, so that
    // stream's header is not known to be the one pdf.js reads (decoy-object-header.test.ts): withheld
    cap: 'maxDictCloseDepth',
    value: maxDictCloseDepth,
    mime: 'application/pdf',
    bytes: () =>
      pdf(
        '<< /Type /Catalog >>',
        `${'<< /A '.repeat(maxDictCloseDepth + 2)}1${' >>'.repeat(maxDictCloseDepth + 2)}`,
        stream('', latin1('q Q')),
      ),
    finding: /pdf stream has more than one object header before its dictionary/,
  },
  {
    cap: 'maxObjectStreamNesting',
    value: maxObjectStreamNesting,
    mime: 'application/pdf',
    bytes: () => nestedObjectStreamPdf({ active: 'none', levels: maxObjectStreamNesting + 3 }),
    finding: new RegExp(`object streams more than ${maxObjectStreamNesting} deep`),
  },
  {
    cap: 'maxMatrixChars',
    value: maxMatrixChars,
    mime: 'application/pdf',
    bytes: () =>
      pdf(
        '<< /Type /Catalog >>',
        `<< /Type /Font /Subtype /Type1 /FontMatrix [0.001 0 0 0.001 0${' '.repeat(maxMatrixChars)} 0] >>`,
      ),
    finding: /`\/FontMatrix` that is not an array of numbers/,
  },
  {
    cap: 'maxFilterChain',
    value: maxFilterChain,
    mime: 'application/pdf',
    bytes: () => {
      let data = latin1('1 0 << /Type /Font >>');
      for (let i = 0; i <= maxFilterChain; i++) data = deflateSync(data);
      const filters = Array.from({ length: maxFilterChain + 1 }, () => '/FlateDecode').join(' ');
      return pdf('<< /Type /Catalog >>', stream(`/Type /ObjStm /N 1 /First 4 /Filter [${filters}]`, data));
    },
    finding: /pdf object stream with filter `FlateDecode( FlateDecode)+` cannot be inspected/,
  },
  {
    cap: 'maxXmlDepth',
    value: maxXmlDepth,
    mime: 'image/svg+xml',
    bytes: () =>
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(maxXmlDepth)}${'</g>'.repeat(maxXmlDepth)}</svg>`,
      ),
    finding: /xml nesting/,
  },
  {
    cap: 'maxDeclaredEntities',
    value: maxDeclaredEntities,
    mime: 'image/svg+xml',
    bytes: () => {
      const entities = Array.from({ length: maxDeclaredEntities + 1 }, (_, i) => `<!ENTITY e${i} "x">`).join('');
      return Buffer.from(`<!DOCTYPE svg [${entities}]><svg xmlns="http://www.w3.org/2000/svg"><text>&e0;</text></svg>`);
    },
    finding: /dtd internal subset/,
  },
  {
    cap: 'maxEntityExpansionChars',
    value: maxEntityExpansionChars,
    mime: 'image/svg+xml',
    bytes: () => {
      const uses = Math.ceil(maxEntityExpansionChars / 1000) + 1;
      return Buffer.from(
        `<!DOCTYPE svg [<!ENTITY a "${'x'.repeat(1000)}">]><svg xmlns="http://www.w3.org/2000/svg"><text>${'&a;'.repeat(uses)}</text></svg>`,
      );
    },
    finding: /dtd entities that expand to more than/,
  },
  {
    cap: 'maxNestedMarkup',
    value: maxNestedMarkup,
    mime: 'text/html',
    bytes: () => nestedSrcdoc(maxNestedMarkup + 1),
    finding: new RegExp(`nested deeper than ${maxNestedMarkup} levels`),
  },
  {
    cap: 'maxMarkdownNesting',
    value: maxMarkdownNesting,
    mime: 'text/markdown',
    bytes: () => nestedMarkdown(maxMarkdownNesting + 1),
    finding: new RegExp(`markdown nested deeper than ${maxMarkdownNesting} levels`),
  },
  {
    cap: "maxParserNanos (a megabyte of markdown: more than half a second of the renderers' measured time)",
    value: maxParserNanos,
    mime: 'text/markdown',
    bytes: () =>
      Buffer.from(`an <kbd style="color: teal"> attribute\n${'Array<Map<string, number>> | '.repeat(35_000)}`),
    finding: /more parser time than any item may/,
  },
  {
    cap: 'maxParserNanos (7 MB of svg nested 250 deep, counted as saxes reads it)',
    value: maxParserNanos,
    mime: 'image/svg+xml',
    bytes: () => {
      const one = `${'<g>'.repeat(250)}${'</g>'.repeat(250)}`;
      return Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg">${one.repeat(Math.ceil(7_000_000 / one.length))}</svg>`,
      );
    },
    finding: /more parser time than any item may \(xml nesting\)/,
  },
  {
    cap: 'maxMdxDepth (block quotes 80 deep, read by the mdx compiler)',
    value: 64,
    mime: 'text/markdown',
    bytes: () => Buffer.from(`${'> '.repeat(80)}deep\n`),
    reader: { uri: 'guide://docs/page.mdx', consumers: ['mdx'] },
    finding: /nested deeper than 64 levels/,
  },
  {
    cap: 'maxTemplateDepth (html 300 deep in a vitepress page)',
    value: 256,
    mime: 'text/markdown',
    bytes: () => Buffer.from(`<div>\n${'<span>'.repeat(300)}deep${'</span>'.repeat(300)}\n</div>\n`),
    reader: { uri: 'guide://docs/page.md', consumers: ['vitepress'] },
    finding: /template nested deeper than 256 levels/,
  },
  {
    cap: 'maxColors (a pdf predictor)',
    value: maxColors,
    mime: 'application/pdf',
    bytes: () => predictedPdf(`/Predictor 12 /Columns 4 /Colors ${maxColors + 1}`),
    finding: /predictor with 33 colors/,
  },
  {
    cap: 'maxColumns (a pdf predictor)',
    value: maxColumns,
    mime: 'application/pdf',
    bytes: () => predictedPdf(`/Predictor 12 /Columns ${maxColumns + 1}`),
    finding: /predictor with \d+ columns/,
  },
  {
    cap: 'maxRowBytes (a pdf predictor)',
    value: maxRowBytes,
    mime: 'application/pdf',
    bytes: () => predictedPdf(`/Predictor 12 /Columns ${maxColumns} /Colors ${maxColors} /BitsPerComponent 16`),
    finding: /predictor rows over/,
  },
  {
    cap: 'the work budget (WorkBudget)',
    value: 0,
    mime: 'text/markdown',
    bytes: () => Buffer.from('# a heading\n\nsome *text* with a [link](https://example.com/)\n'.repeat(100)),
    budget: () => new WorkBudget(1000),
    finding: /more work than its size allows/,
  },
];

// a pdf whose actions sit in an object stream inside an outer stream the predictor `parms` applies to
function predictedPdf(parms: string): Buffer {
  return nestedObjectStreamPdf({
    active: 'open-action-script',
    levels: 2,
    outerEncoding: {
      filter: '/FlateDecode',
      dict: ` /DecodeParms << ${parms} >>`,
      encode: (d) => deflateSync(pngPredict(d, 16)),
    },
  });
}

// constants that bound reading but whose hitting is not a gap: why each one cannot hide content
const notCaps: Record<string, string> = {
  maxCodes:
    'pdf lzw: the 12-bit code table of the format (4,096 codes); a full table stops adding codes, as pdf.js and every LZW reader do, and the rest still decodes',
  maxHeaderTries:
    'pdf: no header found going back means the stream dictionary is read conservatively (every key since the previous stream), which inspects more',
  maxInterestingRawName:
    'pdf: a raw name longer than every active name written with `#xx` escapes throughout cannot decode to one; a length filter, not a limit',
  maxGapBytes:
    'pdf in text: a gap after `trailer` or before `obj` longer than it counts as pdf structure, so the text is read as a pdf, which inspects more',
  maxReadings:
    'markdown parts: past it the text is no longer cut at fences, so the rest stays one live part read whole, which inspects more',
  maxSpanLine:
    'markdown parts: a `<style` line longer than it is taken as opening a style element that holds cutting, which inspects more',
  eocdSearchBytes:
    'zip: the end record is at most 22 + 65,535 bytes from the end by the format; readers search no further',
};

describe('every cap fails closed (issue 39 item 5)', () => {
  test.each(capCases.map((c) => [c.cap, c] as const))(
    '%s: hitting it withholds',
    async (_, c) => {
      const verdict = await judged(c.bytes(), c.mime, c.budget?.(), c.reader);
      expect(verdict.effect, JSON.stringify(verdict.findings)).not.toBe('allow');
      const finding = verdict.findings.find((f) => c.finding.test(f.reason.message));
      expect(finding, JSON.stringify(verdict.findings)).toBeDefined();
      expect(withheldCodes).toContain(finding?.reason.code);
    },
    60_000,
  );

  test('every exported cap in src/content is in the table', () => {
    const listed = new Set(capCases.map((c) => c.cap.split(' ')[0]));
    const exported: string[] = [];
    for (const file of sourceFiles()) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:export )?const (max[A-Z]\w*|default(?:Max)\w*)\s*=/g))
        exported.push(match[1] ?? '');
    }
    const missing = exported.filter((name) => !listed.has(name) && !(name in notCaps));
    expect(missing).toEqual([]);
  });

  // every `catch` on a decision path in src/content, by file: how it ends
  const catches: Record<string, { count: number; why: string }> = {
    'sniff-content.ts': {
      count: 1,
      why: 'work exhausted or stack overflow: too complex (withheld); anything else rethrown (engine error: deny)',
    },
    'polyglot.ts': { count: 1, why: "acorn's syntax error is the answer (the bytes are not a script), not a failure" },
    'svg-html/active-xml.ts': { count: 1, why: 'the stop sentinel of the first finding; anything else rethrown' },
    'image/image-metadata.ts': {
      count: 2,
      why: 'past the inflate budget: uninterpretable; damaged: what zlib yields is read, nothing at all: uninterpretable',
    },
    'image/heif-boxes.ts': {
      count: 1,
      why: 'a malformed or cut box: uninterpretable (malformed); anything else rethrown',
    },
    'image/image-structure.ts': { count: 1, why: 'a read past the end: truncated, uninterpretable' },
    'archive/zip-entries.ts': {
      count: 1,
      why: 'an entry that does not inflate reads as null: a marker entry then makes the zip uninterpretable',
    },
    'notebook/active-notebook.ts': {
      count: 1,
      why: 'a member name JSON.parse cannot read is not valid JSON: no viewer opens the body as a notebook, and JSON declared as JSON is still read as data',
    },
    'pdf/pdf-decrypt.ts': {
      count: 1,
      why: 'an aes stream whose padding is bad does not decrypt: null, which the scan reports as uninterpretable',
    },
    'consumers/mdx-compiler.ts': {
      count: 1,
      why: 'a page the mdx parser rejects is rejected by the mdx compiler too: the page is never built, nothing of it runs',
    },
    'consumers/vitepress.ts': {
      count: 1,
      why: 'frontmatter yaml that does not parse stops gray-matter too: the page is not built, no head entry runs',
    },
    'svg-html/leaves-page.ts': {
      count: 1,
      why: 'a url the WHATWG parser refuses cannot be shown to stay on the page: it leaves it (withheld)',
    },
    'svg-html/css-import.ts': {
      count: 1,
      why: 'a stylesheet url the WHATWG parser refuses is one the browser refuses too: it loads nothing',
    },
    'text/json-syntax.ts': {
      count: 1,
      why: "json.parse's syntax error is read again only for python's NaN and Infinity; anything else rethrown",
    },
    'pdf/pdf-filters.ts': {
      count: 2,
      why: 'past the inflate budget: uninterpretable; cut short: what inflates is read (an object stream: uninterpretable); nothing: uninterpretable',
    },
  };

  test('every catch in src/content is listed with how it ends', () => {
    const found: Record<string, number> = {};
    for (const file of sourceFiles()) {
      const count = [...readFileSync(file, 'utf8').matchAll(/\bcatch\s*[({]|\.catch\(/g)].length;
      if (count > 0) found[path.relative(srcContent, file)] = count;
    }
    expect(found).toEqual(Object.fromEntries(Object.entries(catches).map(([file, c]) => [file, c.count])));
  });
});

function sourceFiles(): string[] {
  return readdirSync(srcContent, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(srcContent, f));
}
