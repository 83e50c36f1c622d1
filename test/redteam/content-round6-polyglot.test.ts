// Content red team round 6 for polyglots (issue 41 item 2): java archives that `java -jar` runs from behind another
// format's bytes. Java finds a zip by its end record and reads the central directory relative to it, so a PDF, a GIF,
// a PNG or a text note with a jar appended runs as the jar, and a jar whose entries say their sizes only in data descriptors runs too (tried and not live: a manifest named
// `meta-inf/manifest.mf`, which `java -jar` does not find). The oracle is
// the JDK itself (`javac` compiles the main class, `java -jar` runs the body written as a file; skipped where no JDK
// is installed): an attack is live when its main class made the marker file. Controls are the same containers holding zip
// signatures that make no archive (a local header signature in a page's text, an empty end record in a GIF comment):
// `java -jar` refuses each, and the gate allows each. (A zip of a text note appended to a PDF is denied by design: the
// shell consumer denies any zip archive a zip reader finds inside an image or a PDF.)
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { makeGif, makePng, u16le, u32le } from '../fixtures/make-bytes.ts';
import { profileGate } from '../content/consumers/profile-gate.ts';
import { linkPdf } from '../content/pdf/second-reader-pdfs.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from '../content/redteam/judge-variants.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'linkgate-cr6-jar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(file: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: dir }, (error) => resolve(error === null ? 0 : Number(error.code ?? 1)));
  });
}

// the main class, compiled once by the JDK's own compiler (undefined: no JDK on this machine)
let mainClass: Buffer | undefined;
beforeAll(async () => {
  if (!existsSync('/usr/bin/javac') || !existsSync('/usr/bin/java')) return;
  writeFileSync(
    path.join(dir, 'Ran.java'),
    'public class Ran { public static void main(String[] a) throws Exception { new java.io.File(a[0]).createNewFile(); } }\n',
  );
  if ((await run('/usr/bin/javac', ['--release', '8', 'Ran.java'])) === 0)
    mainClass = readFileSync(path.join(dir, 'Ran.class'));
}, 120_000);

interface Entry {
  name: string;
  data: Buffer;
}

/** A zip of stored entries, its offsets counted from its own first byte; `descriptors`: sizes only in data descriptors. */
function zip(entries: readonly Entry[], descriptors = false): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let at = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const flags = descriptors ? 0x08 : 0;
    const sized = (n: number): Buffer => u32le(descriptors ? 0 : n);
    const local = Buffer.concat([
      u32le(0x04034b50),
      u16le(10),
      u16le(flags),
      u16le(0),
      u32le(0),
      descriptors ? u32le(0) : u32le(crc),
      sized(data.length),
      sized(data.length),
      u16le(nameBytes.length),
      u16le(0),
      nameBytes,
      data,
      descriptors
        ? Buffer.concat([u32le(0x08074b50), u32le(crc), u32le(data.length), u32le(data.length)])
        : Buffer.alloc(0),
    ]);
    centrals.push(
      Buffer.concat([
        u32le(0x02014b50),
        u16le(20),
        u16le(10),
        u16le(flags),
        u16le(0),
        u32le(0),
        u32le(crc),
        u32le(data.length),
        u32le(data.length),
        u16le(nameBytes.length),
        u16le(0),
        u16le(0),
        u16le(0),
        u16le(0),
        u32le(0),
        u32le(at),
        nameBytes,
      ]),
    );
    locals.push(local);
    at += local.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.concat([
    u32le(0x06054b50),
    u16le(0),
    u16le(0),
    u16le(entries.length),
    u16le(entries.length),
    u32le(central.length),
    u32le(at),
    u16le(0),
  ]);
  return Buffer.concat([...locals, central, end]);
}

const manifest = (name = 'META-INF/MANIFEST.MF'): Entry => ({
  name,
  data: Buffer.from('Manifest-Version: 1.0\r\nMain-Class: Ran\r\n\r\n'),
});
const jar = (cls: Buffer, manifestName?: string, descriptors = false): Buffer =>
  zip([manifest(manifestName), { name: 'Ran.class', data: cls }], descriptors);
// a one-page PDF whose page content stream is `content`
function pdfWithContent(content: Buffer): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  const push = (b: Buffer): void => {
    parts.push(b);
    length += b.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    push(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1'));
  });
  offsets.push(length);
  push(Buffer.from(`4 0 obj\n<< /Length ${content.length} >>\nstream\n`, 'latin1'));
  push(content);
  push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  const xref = length;
  let table = `xref\n0 5\n0000000000 65535 f \n`;
  for (const at of offsets) table += `${String(at).padStart(10, '0')} 00000 n \n`;
  push(Buffer.from(`${table}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

// a GIF with `text` as a comment extension after its colour table
function gifWithComment(text: Buffer): Buffer {
  const gif = makeGif();
  const blocks: Buffer[] = [Buffer.from([0x21, 0xfe])];
  for (let i = 0; i < text.length; i += 255) {
    const part = text.subarray(i, i + 255);
    blocks.push(Buffer.from([part.length]), part);
  }
  blocks.push(Buffer.from([0]));
  return Buffer.concat([gif.subarray(0, 19), ...blocks, gif.subarray(19)]);
}
const pdf = linkPdf('', '<< /S /URI /URI (https://example.com/guide) >>');
const note = Buffer.from('Release notes\n\nThe archive below holds the build.\n');

// key, name, body of the main class, file name, sendings
type Case = readonly [
  key: string,
  name: string,
  body: (cls: Buffer) => Buffer,
  file: string,
  sendings: readonly Sending[],
];
const as = (base: string, ext: string, type: string): Sending[] =>
  sendingsOf(`guide://files/${base}`, [ext, ''], [type, 'application/octet-stream', undefined]);

const attacks: Case[] = [
  [
    'pdf-then-jar',
    'a PDF with a jar appended',
    (c) => Buffer.concat([pdf, jar(c)]),
    'report.pdf',
    as('report', '.pdf', 'application/pdf'),
  ],
  [
    'gif-then-jar',
    'a GIF with a jar appended',
    (c) => Buffer.concat([makeGif(), jar(c)]),
    'photo.gif',
    as('photo', '.gif', 'image/gif'),
  ],
  [
    'png-then-jar',
    'a PNG with a jar appended',
    (c) => Buffer.concat([makePng(), jar(c)]),
    'photo.png',
    as('photo', '.png', 'image/png'),
  ],
  [
    'note-then-jar',
    'a text note with a jar appended',
    (c) => Buffer.concat([note, jar(c)]),
    'notes.txt',
    as('notes', '.txt', 'text/plain'),
  ],
  [
    'jar-data-descriptors',
    'a jar whose sizes are only in data descriptors, after a GIF',
    (c) => Buffer.concat([makeGif(), jar(c, undefined, true)]),
    'photo.gif',
    as('photo', '.gif', 'image/gif'),
  ],
];

const controls: Case[] = [
  [
    'pdf-zip-signature-in-stream',
    'a PDF whose page content holds a local file header signature',
    () => pdfWithContent(Buffer.concat([Buffer.from('BT (PK'), Buffer.from([3, 4]), Buffer.from('notes) Tj ET')])),
    'report.pdf',
    as('report', '.pdf', 'application/pdf'),
  ],
  [
    'gif-comment-empty-end-record',
    'a GIF whose comment holds an empty zip end record',
    () => gifWithComment(zip([])),
    'photo.gif',
    as('photo', '.gif', 'image/gif'),
  ],
];

function needJdk(ctx: TestContext): Buffer {
  if (mainClass === undefined) return ctx.skip('no JDK (javac, java) on this machine');
  return mainClass;
}

async function javaRuns(body: Buffer, file: string): Promise<boolean> {
  const target = path.join(dir, file);
  const mark = path.join(dir, `${file}.ran`);
  rmSync(mark, { force: true });
  writeFileSync(target, body);
  const code = await run('/usr/bin/java', ['-jar', target, mark]);
  return code === 0 && existsSync(mark);
}

// octet-stream admitted for the controls (the shipped policy refuses it by name)
const octetAdmitted = profileGate(undefined, ['application/octet-stream']);

describe('content round 6: java -jar runs each polyglot, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([key, name, body, file, sendings]) => ({ key, name, body, file, sendings })))(
    '$key: $name',
    { timeout: 60_000 },
    async ({ body, file, sendings }, ctx) => {
      const bytes = body(needJdk(ctx));
      expect(await javaRuns(bytes, file)).toBe(true);
      expect(letThrough(await judgeSendings({ blob: bytes }, sendings))).toEqual([]);
    },
  );
});

describe('content round 6: java -jar refuses each control, the shipped profile allows it', () => {
  test.for(controls.map(([key, name, body, file, sendings]) => ({ key, name, body, file, sendings })))(
    '$key: $name',
    { timeout: 60_000 },
    async ({ body, file, sendings }, ctx) => {
      const bytes = body(needJdk(ctx));
      expect(await javaRuns(bytes, file)).toBe(false);
      expect(refused(await judgeSendings({ blob: bytes }, sendings, octetAdmitted))).toEqual([]);
    },
  );
});
