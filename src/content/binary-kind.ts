// Binary formats by signature: file-type 21 on the leading bytes, plus signatures it does not know.
import { fileTypeFromBuffer } from 'file-type';
import { kindOfFileType } from './kinds.ts';

/** Leading bytes handed to file-type, bytes; enough for every signature it checks on a buffer prefix. */
export const sniffBytes = 16 * 1024;

// signatures file-type 21 does not report (or reports less precisely)
const ownSignatures: readonly { kind: string; magic: Buffer }[] = [
  { kind: 'crx', magic: Buffer.from('Cr24', 'latin1') },
  { kind: 'dex', magic: Buffer.from('dex\n', 'latin1') },
  { kind: 'shell-script', magic: Buffer.from('#!', 'latin1') },
  { kind: 'reg', magic: Buffer.from('REGEDIT', 'latin1') },
  { kind: 'zip', magic: Buffer.from([0x50, 0x4b, 0x03, 0x04]) },
  { kind: 'zip', magic: Buffer.from([0x50, 0x4b, 0x05, 0x06]) },
  { kind: 'cfb', magic: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
];

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// the allowed image formats and PDF by their full signatures, answered without file-type's async tokenizer
// (same answers as file-type 21 for these signatures, APNG included)
function commonKind(b: Buffer): string | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG)) return pngOrApng(b);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 5 && b.toString('latin1', 0, 5) === '%PDF-') return 'pdf';
  return null;
}

// an acTL chunk before the first IDAT makes a PNG animated (APNG spec §2)
function pngOrApng(b: Buffer): string {
  let at = 8;
  for (let n = 0; n < 64 && at + 8 <= b.length; n++) {
    const type = b.toString('latin1', at + 4, at + 8);
    if (type === 'acTL') return 'apng';
    if (type === 'IDAT' || type === 'IEND') return 'png';
    at += 12 + b.readUInt32BE(at);
  }
  return 'png';
}

/** The kind named by a binary signature at offset 0, or null when nothing recognizes the bytes. */
export async function binaryKind(bytes: Buffer): Promise<string | null> {
  for (const { kind, magic } of ownSignatures) {
    if (bytes.length >= magic.length && bytes.subarray(0, magic.length).equals(magic)) return kind;
  }
  const common = commonKind(bytes);
  if (common !== null) return common;
  const found = await fileTypeFromBuffer(bytes.subarray(0, sniffBytes));
  return found === undefined ? null : kindOfFileType(found.ext, found.mime);
}
