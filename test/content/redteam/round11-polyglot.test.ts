// Red team round 11 for polyglots (issue 41 item 2, "a body that a second consumer in the profile reads as a different,
// active format is judged as that format too, wherever in the bytes it starts"): a PDF whose open action runs a script
// after a CSV, a text file or a JSON answer, inside a png tEXt or iTXt chunk or a jpeg comment in the middle of the
// image, after a gif, a webp or a zip; a PDF with neither header nor `startxref` after text (pdf.js rebuilds its
// cross-reference table from the objects it finds); and a macro-enabled Office package or a runnable jar appended to
// an image or a text. The oracles read as the second consumer does: pdf.js 4 (pdfjs-oracle.ts) finds the script; the
// zip reader that reads a package by its central directory from the end, as unzip and Office do (jszip), finds the
// VBA project or the jar's manifest. Controls are the images and PDFs packages install (playwright's and istanbul's
// icons, pdf.js's loading gif, python's doc images, node's doc jpegs, shared-mime-info's and libtasn1's manuals): pdf.js
// finds no script in them, the zip reader no archive, and the gate allows them. A case that gets through is a
// `test.fails` named in `open` (the round's findings in its session's closing note).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, describe, expect, type TestContext, test } from 'vitest';
import {
  makeGif,
  makeJar,
  makeJpeg,
  makeOoxml,
  makePdf,
  makePng,
  makeWebp,
  makeZip,
} from '../../fixtures/make-bytes.ts';
import { repoRoot } from '../../helpers/shared-dir.ts';
import { mustRunRealParts } from '../../real-host/host-suite.ts';
import { pdfJsOpenScripts } from '../pdf/pdfjs-oracle.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from './judge-variants.ts';

const scripted = makePdf({ activeName: 'JavaScript' });
// the same PDF's objects alone, without header, cross-reference table or `startxref`
const objects = (() => {
  const text = scripted.toString('latin1');
  return Buffer.from(text.slice(text.indexOf('1 0 obj'), text.indexOf('xref')), 'latin1');
})();
const csv = Buffer.from(
  `id,name,score\n${Array.from({ length: 80 }, (_, i) => `${i},user${i},${i * 3}`).join('\n')}\n`,
);
const notes = Buffer.from(`Release notes\n\n${'All fixes are listed below.\n'.repeat(60)}`);
const answer = Buffer.from(
  JSON.stringify({ items: Array.from({ length: 60 }, (_, i) => ({ i, n: `item ${i}` })) }, null, 1),
);
const padding = Buffer.alloc(1100, 0x20);

// a png with a `type` chunk holding `data`, right after the header chunk (the image data follows it)
function pngWithChunk(type: string, data: Buffer): Buffer {
  const png = makePng();
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  data.copy(chunk, 8);
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}
// a jpeg whose first segment is a comment holding `data`
function jpegWithComment(data: Buffer): Buffer {
  const jpeg = makeJpeg();
  const head = Buffer.from([0xff, 0xfe, (data.length + 2) >> 8, (data.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), head, data, jpeg.subarray(2)]);
}

const typed = (base: string, exts: string[], types: (string | undefined)[]): Sending[] => sendingsOf(base, exts, types);
const textSendings = typed('guide://docs/notes', ['.txt', '.md', '.csv', ''], ['text/plain', 'text/csv', undefined]);
const pngSendings = typed('guide://media/photo', ['.png', ''], ['image/png', 'application/octet-stream', undefined]);

// key, name, bytes, sendings, which consumer finds it
type Case = readonly [key: string, name: string, bytes: Buffer, sendings: readonly Sending[], reader: 'pdf' | 'zip'];
const attacks: Case[] = [
  ['pdf-after-csv', 'a scripted PDF after a csv table', Buffer.concat([csv, scripted]), textSendings, 'pdf'],
  ['pdf-after-notes', 'a scripted PDF after release notes', Buffer.concat([notes, scripted]), textSendings, 'pdf'],
  [
    'pdf-after-json',
    'a scripted PDF after a JSON answer',
    Buffer.concat([answer, Buffer.from('\n'), scripted]),
    typed('guide://api/items', ['.json', ''], ['application/json', 'text/plain', undefined]),
    'pdf',
  ],
  [
    'pdf-in-png-text',
    "a scripted PDF in a png tEXt chunk before the image's data",
    pngWithChunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), padding, scripted])),
    pngSendings,
    'pdf',
  ],
  [
    'pdf-in-png-itxt',
    'a scripted PDF in a png iTXt (XMP) chunk',
    pngWithChunk('iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), padding, scripted])),
    pngSendings,
    'pdf',
  ],
  [
    'pdf-in-jpeg-comment',
    'a scripted PDF in a jpeg comment segment',
    jpegWithComment(Buffer.concat([padding, scripted])),
    typed('guide://media/photo', ['.jpg', ''], ['image/jpeg', undefined]),
    'pdf',
  ],
  [
    'pdf-after-gif',
    'a scripted PDF after a gif',
    Buffer.concat([makeGif(), padding, scripted]),
    typed('guide://media/anim', ['.gif', ''], ['image/gif', undefined]),
    'pdf',
  ],
  [
    'pdf-after-webp',
    'a scripted PDF after a webp',
    Buffer.concat([makeWebp(), padding, scripted]),
    typed('guide://media/photo', ['.webp', ''], ['image/webp', undefined]),
    'pdf',
  ],
  [
    'pdf-after-zip',
    'a scripted PDF after a zip',
    Buffer.concat([makeZip([{ name: 'a.txt', data: 'hello' }]), padding, scripted]),
    typed('guide://files/bundle', ['.zip', ''], ['application/zip', 'application/octet-stream', undefined]),
    'pdf',
  ],
  [
    'pdf-objects-trailer-only',
    'PDF objects and a trailer after text, no header, no startxref',
    Buffer.concat([notes, objects, Buffer.from('trailer\n<< /Root 1 0 R >>\n')]),
    typed('guide://docs/notes', ['.txt', '.pdf', ''], ['text/plain', 'application/pdf', undefined]),
    'pdf',
  ],
  [
    'docm-after-png',
    'a macro-enabled Word package appended to a png',
    Buffer.concat([makePng(), makeOoxml({ macroEnabled: true, vbaProject: true })]),
    pngSendings,
    'zip',
  ],
  [
    'docm-after-text',
    'a macro-enabled Word package appended to a text',
    Buffer.concat([notes, makeOoxml({ macroEnabled: true, vbaProject: true })]),
    textSendings,
    'zip',
  ],
  [
    'jar-after-gif',
    'a runnable jar appended to a gif',
    Buffer.concat([makeGif(), makeJar()]),
    typed('guide://media/anim', ['.gif', ''], ['image/gif', undefined]),
    'zip',
  ],
];

// name, an installed file (node_modules, or the system's), sendings
const imageSendings = typed('guide://media/icon', ['.png', ''], ['image/png', undefined]);
const controls: [string, string, readonly Sending[]][] = [
  ["playwright's app icon (png)", 'playwright-core/lib/server/chromium/appIcon.png', imageSendings],
  ["istanbul's favicon (png)", 'istanbul-reports/lib/html/assets/favicon.png', imageSendings],
  [
    "pdf.js's loading icon (gif)",
    'pdfjs-dist/web/images/loading-icon.gif',
    typed('guide://media/anim', ['.gif', ''], ['image/gif', undefined]),
  ],
  ["python's doc file icon (png)", '/usr/share/doc/python3/_static/file.png', imageSendings],
  [
    "node's doc stripe (jpeg)",
    '/usr/share/doc/nodejs/thin-white-stripe.jpg',
    typed('guide://media/photo', ['.jpg', ''], ['image/jpeg', undefined]),
  ],
  [
    "shared-mime-info's specification (pdf)",
    '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf',
    typed('guide://docs/spec', ['.pdf', ''], ['application/pdf', undefined]),
  ],
  [
    "libtasn1's manual (pdf)",
    '/usr/share/doc/libtasn1-doc/libtasn1.pdf',
    typed('guide://docs/manual', ['.pdf', ''], ['application/pdf', undefined]),
  ],
];

/** Cases that get through at the time of writing (named in the round's findings in its session's closing note). */
const open = new Set<string>([]);

// what the second consumer finds: pdf.js's scripts, or the zip reader's active parts (a VBA project, a jar manifest)
async function foundBy(reader: 'pdf' | 'zip', bytes: Buffer): Promise<string[]> {
  if (reader === 'pdf') return await pdfJsOpenScripts(bytes).catch(() => []);
  const zip = await JSZip.loadAsync(bytes).catch(() => undefined);
  return Object.keys(zip?.files ?? {}).filter((n) => /vbaProject\.bin$|^META-INF\/MANIFEST\.MF$/i.test(n));
}
function installedFile(ctx: TestContext, file: string): Buffer {
  const at = path.isAbsolute(file) ? file : path.join(repoRoot, 'node_modules', file);
  if (!existsSync(at)) {
    if (mustRunRealParts()) throw new Error(`${at} is missing under CI=true`);
    return ctx.skip(`${at} is missing`);
  }
  return readFileSync(at);
}

let slowest = { key: '', ms: 0 };

describe('round 11: the second consumer finds the active format in each attack', () => {
  test.for(attacks.map(([key, name, bytes, , reader]) => ({ key, name, bytes, reader })))(
    '$key: $name',
    async ({ bytes, reader }) => {
      expect(await foundBy(reader, bytes)).not.toEqual([]);
    },
  );
});

describe('round 11: the shipped profile withholds each polyglot however it is sent', () => {
  for (const [key, name, bytes, sendings] of attacks)
    (open.has(key) ? test.fails : test)(`${key}: ${name}`, async () => {
      const before = process.cpuUsage();
      const verdicts = await judgeSendings({ blob: bytes }, sendings);
      const used = process.cpuUsage(before);
      if ((used.user + used.system) / 1000 > slowest.ms) slowest = { key, ms: (used.user + used.system) / 1000 };
      expect(letThrough(verdicts)).toEqual([]);
    });
  afterAll(() => {
    console.log(`round11-polyglot: slowest judgement ${slowest.key} ${slowest.ms.toFixed(0)} ms cpu`);
  });
});

describe('round 11: pdf.js finds no script and the zip reader no active part in each installed file, the gate allows it', () => {
  test.for(controls.map(([name, file, sendings]) => ({ name, file, sendings })))(
    '$name',
    { timeout: 60_000 },
    async ({ file, sendings }, ctx) => {
      const bytes = installedFile(ctx, file);
      expect(await pdfJsOpenScripts(bytes).catch(() => [])).toEqual([]);
      expect(await foundBy('zip', bytes)).toEqual([]);
      expect(refused(await judgeSendings({ blob: bytes }, sendings))).toEqual([]);
    },
  );
});
