// The PDF reader consumer against pdf.js itself (issue 41 item 6): pdf.js (the oracle) opens each body and lists the
// JavaScript it would run when the document opens. An attack is shown active by pdf.js and withheld by the gate's
// pdf-reader adapter alone (wherever the pdf stands: a whole file, an object stream, after the first KiB of an
// image, behind an empty password); a benign control runs nothing in pdf.js and is allowed under the default
// profile.
import { describe, expect, test } from 'vitest';
import { makePdf, makePng } from '../../fixtures/make-bytes.ts';
import { encryptedPdf } from '../pdf/encrypt-pdf.ts';
import { pdfWithHiddenOpenAction } from '../pdf/make-pdf-variants.ts';
import { pdfJsOpenScripts } from '../pdf/pdfjs-oracle.ts';
import { decideBody, profileGate } from './profile-gate.ts';

const pdfReaderOnly = profileGate(['pdf-reader']);
const defaults = profileGate();

// a png whose text chunk carries `payload` after `filler` spaces
function pngCarrying(payload: Buffer, filler: number): Buffer {
  const png = makePng();
  const data = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(filler, 0x20), payload]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
}

// name, declared type, bytes
const attacks: [string, string, Buffer][] = [
  ['an OpenAction script', 'application/pdf', makePdf({ activeName: 'JavaScript' })],
  ['an OpenAction in an object stream', 'application/pdf', pdfWithHiddenOpenAction()],
  [
    'an OpenAction behind an empty password (aes-256)',
    'application/pdf',
    encryptedPdf('aes-256', { withAction: true }),
  ],
  ['a pdf 2 KiB into a png', 'image/png', pngCarrying(pdfWithHiddenOpenAction(), 2048)],
  ['a pdf 64 KiB into a png', 'image/png', pngCarrying(pdfWithHiddenOpenAction(), 64 * 1024)],
];

const controls: [string, string, Buffer][] = [
  ['an ordinary pdf with a web link', 'application/pdf', makePdf()],
  ['an empty-password pdf without actions', 'application/pdf', encryptedPdf('aes-128', { withAction: false })],
  [
    'a how-to quoting a pdf header in code',
    'text/markdown',
    Buffer.from('```\n%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n```\n'),
  ],
  ['a png whose comment names pdf words', 'image/png', pngCarrying(Buffer.from('made with a pdf trailer tool'), 16)],
];

const notesThenPdf = Buffer.concat([Buffer.from('notes from the meeting\n'), makePdf({ activeName: 'JavaScript' })]);

describe('pdf.js finds script in each attack, the gate withholds it', () => {
  test('a pdf after a line of text, sent as text', async () => {
    expect(await pdfJsOpenScripts(notesThenPdf)).not.toEqual([]);
    const text = notesThenPdf.toString('latin1');
    const verdict = await decideBody(pdfReaderOnly, 'guide://docs/notes.txt', 'text/plain', { text });
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/javascript/i);
  });

  test.each(attacks)('%s', async (_, mime, bytes) => {
    expect(await pdfJsOpenScripts(bytes)).not.toEqual([]);
    const verdict = await decideBody(pdfReaderOnly, 'guide://docs/file', mime, { blob: bytes.toString('base64') });
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/pdf|javascript/i);
  });
});

describe('pdf.js finds no script in each control, the gate allows it', () => {
  test.each(controls)('%s', async (_, mime, bytes) => {
    expect(await pdfJsOpenScripts(bytes).catch(() => [])).toEqual([]);
    expect(await decideBody(defaults, 'guide://docs/file', mime, { blob: bytes.toString('base64') })).toEqual({
      effect: 'allow',
      why: '',
    });
  });
});
