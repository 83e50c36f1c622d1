// Hidden rounds 4 and 5 rebuilt for the PDF reader (issue 41): PDFs a red team hides where a header check does not
// look (after 4 KiB of a PNG, JPEG or GIF, after 4 KiB of text, with no header at all), each shown live by pdf.js
// itself (the JavaScript it would run on open) and withheld by the shipped profile under every plausible sending;
// benign controls (empty-password encrypted PDFs, images over 4 KiB) run nothing in pdf.js and are allowed.
import { deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { makeGif, makeJpeg, makePdf, makePng } from '../../fixtures/make-bytes.ts';
import { encryptedPdf } from '../pdf/encrypt-pdf.ts';
import { pdfWithHiddenOpenAction } from '../pdf/make-pdf-variants.ts';
import { pdfJsOpenScripts } from '../pdf/pdfjs-oracle.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from './judge-variants.ts';

const FOUR_KIB = 4096;
const scripted = makePdf({ activeName: 'JavaScript' });
const hidden = pdfWithHiddenOpenAction();

function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  return out; // pdf.js and the gate read the bytes, not the crc
}

// a png of at least `before` bytes (a text chunk of spaces) with `tail` after its IEND
function pngThen(before: number, tail: Buffer): Buffer {
  const png = makePng();
  const filler = pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(before, 0x20)]));
  return Buffer.concat([png.subarray(0, png.length - 12), filler, png.subarray(png.length - 12), tail]);
}

// a png whose compressed pixel data holds 4 KiB and then `payload` in a text chunk
function pngCarrying(payload: Buffer): Buffer {
  const png = makePng({ width: 64, height: 64 });
  const noise = pngChunk('zTXt', Buffer.concat([Buffer.from('Raw\0\0'), deflateSync(Buffer.alloc(FOUR_KIB, 7))]));
  const text = pngChunk('iTXt', Buffer.concat([Buffer.from('Note\0\0\0\0\0'), Buffer.alloc(FOUR_KIB, 0x20), payload]));
  return Buffer.concat([png.subarray(0, png.length - 12), noise, text, png.subarray(png.length - 12)]);
}

// a jpeg whose comment segment holds 4 KiB of spaces and then `payload`
function jpegCarrying(payload: Buffer): Buffer {
  const jpeg = makeJpeg();
  const data = Buffer.concat([Buffer.alloc(FOUR_KIB, 0x20), payload]);
  const com = Buffer.concat([Buffer.from([0xff, 0xfe, (data.length + 2) >> 8, (data.length + 2) & 0xff]), data]);
  return Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]);
}

// a jpeg padded past 4 KiB (a comment) with `tail` after its EOI
function jpegThen(tail: Buffer): Buffer {
  return Buffer.concat([jpegCarrying(Buffer.alloc(0)), tail]);
}

// a gif with a 4 KiB comment extension, then `tail` after its trailer
function gifThen(tail: Buffer): Buffer {
  const gif = makeGif();
  const blocks: Buffer[] = [Buffer.from([0x21, 0xfe])];
  for (let left = FOUR_KIB; left > 0; left -= 255) {
    const n = Math.min(255, left);
    blocks.push(Buffer.from([n]), Buffer.alloc(n, 0x20));
  }
  blocks.push(Buffer.from([0]));
  return Buffer.concat([gif.subarray(0, 13 + 6), ...blocks, gif.subarray(13 + 6), tail]);
}

const imageTypes = (type: string, ext: string): Sending[] => [
  ...sendingsOf(
    'guide://media/photo',
    [ext, ext.toUpperCase(), '.bin', ''],
    [type, 'application/octet-stream', undefined],
  ),
  ['guide://media/photo.pdf', type],
];

// name, bytes, sendings
const attacks: [string, Buffer, Sending[]][] = [
  ['a pdf after the IEND of a 4 KiB png', pngThen(FOUR_KIB, scripted), imageTypes('image/png', '.png')],
  ['an object-stream pdf after the IEND of a 4 KiB png', pngThen(FOUR_KIB, hidden), imageTypes('image/png', '.png')],
  ['a pdf in an iTXt chunk after 4 KiB of png', pngCarrying(hidden), imageTypes('image/png', '.png')],
  ['a pdf in a jpeg comment after 4 KiB', jpegCarrying(scripted), imageTypes('image/jpeg', '.jpg')],
  ['a pdf after the EOI of a 4 KiB jpeg', jpegThen(hidden), imageTypes('image/jpeg', '.jpeg')],
  ['a pdf after the trailer of a 4 KiB gif', gifThen(scripted), imageTypes('image/gif', '.gif')],
  [
    'a pdf after 4 KiB of text notes',
    Buffer.concat([Buffer.from(`${'meeting notes, line by line\n'.repeat(160)}`), scripted]),
    sendingsOf('guide://docs/notes', ['.txt', '.md', ''], ['text/plain', 'text/markdown', undefined]),
  ],
  [
    'a pdf with no header at all',
    // the header line blanked, so every offset still holds
    Buffer.concat([Buffer.alloc(hidden.indexOf('\n'), 0x20), hidden.subarray(hidden.indexOf('\n'))]),
    sendingsOf('guide://docs/report', ['.pdf', '.bin', ''], ['application/pdf', 'application/octet-stream', undefined]),
  ],
  [
    'a pdf with no header, sent as text',
    Buffer.concat([Buffer.alloc(hidden.indexOf('\n'), 0x20), hidden.subarray(hidden.indexOf('\n'))]),
    sendingsOf('guide://docs/report', ['.txt', '.pdf', ''], ['text/plain', undefined]),
  ],
];

const controls: [string, Buffer, Sending[]][] = [
  ...(['aes-128', 'rc4-128', 'aes-256'] as const).map((cipher): [string, Buffer, Sending[]] => [
    `an empty-password ${cipher} pdf without actions`,
    encryptedPdf(cipher, { withAction: false }),
    sendingsOf('guide://docs/report', ['.pdf', '.PDF', ''], ['application/pdf', undefined]),
  ]),
  ['a png over 4 KiB', pngThen(FOUR_KIB, Buffer.alloc(0)), sendingsOf('guide://media/a', ['.png', ''], ['image/png'])],
  ['a jpeg over 4 KiB', jpegThen(Buffer.alloc(0)), sendingsOf('guide://media/a', ['.jpg', ''], ['image/jpeg'])],
  ['a gif over 4 KiB', gifThen(Buffer.alloc(0)), sendingsOf('guide://media/a', ['.gif', ''], ['image/gif'])],
];

describe('pdf.js finds script in each attack, the shipped profile withholds it however it is sent', () => {
  test.each(attacks)('%s', { timeout: 60_000 }, async (_, bytes, sendings) => {
    expect(await pdfJsOpenScripts(bytes)).not.toEqual([]);
    const body = sendings.some(([, t]) => t?.startsWith('text/'))
      ? { text: bytes.toString('latin1') }
      : { blob: bytes };
    expect(letThrough(await judgeSendings(body, sendings))).toEqual([]);
  });
});

describe('pdf.js finds no script in each control, the shipped profile allows it however it is sent', () => {
  test.each(controls)('%s', { timeout: 60_000 }, async (_, bytes, sendings) => {
    expect(await pdfJsOpenScripts(bytes).catch(() => [])).toEqual([]);
    expect(refused(await judgeSendings({ blob: bytes }, sendings))).toEqual([]);
  });
});
