// Binary formats by signature: our own exact checks for the formats we see most (answered synchronously),
// then file-type 21 on the leading bytes for everything else.
import { kindOfFileType } from './kinds.ts';

/** Leading bytes handed to file-type, bytes; enough for every signature it checks on a buffer prefix. */
export const sniffBytes = 16 * 1024;

/** Most PNG chunks walked to tell APNG from PNG (an `acTL` chunk must come before the first `IDAT`). */
export const apngChunkWalk = 64;

// true when the bytes at `offset` are `signature`, one byte per character (latin-1: `\x89` is the byte 0x89)
const at = (b: Uint8Array, offset: number, signature: string): boolean => {
  if (b.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (b[offset + i] !== signature.charCodeAt(i)) return false;
  return true;
};

// PNG (RFC 2083 §3.1) and compound file (MS-CFB §2.2) signatures
const pngSignature = '\x89PNG\r\n\x1a\n';
const cfbSignature = '\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1';

/**
 * The kind named by a signature we check ourselves, or undefined when only file-type can tell.
 * Covers signatures file-type 21 does not report (crx, dex, shebang, reg), the containers we classify
 * further (zip, cfb), and the allowed formats whose answers equal file-type's (png/apng, jpeg, gif,
 * webp, bmp, pdf); none of file-type's earlier detectors can claim bytes that start like these.
 */
export function knownSignatureKind(b: Uint8Array): string | undefined {
  if (b.length < 2) return undefined;
  switch (b[0]) {
    case 0x89:
      return at(b, 0, pngSignature) ? pngOrApng(b) : undefined;
    case 0xff:
      return b.length >= 3 && b[1] === 0xd8 && b[2] === 0xff ? 'jpeg' : undefined;
    case 0x47: // G
      return at(b, 0, 'GIF87a') || at(b, 0, 'GIF89a') ? 'gif' : undefined;
    case 0x52: // R
      if (at(b, 0, 'RIFF') && at(b, 8, 'WEBP')) return 'webp';
      return at(b, 0, 'REGEDIT') ? 'reg' : undefined;
    case 0x42: // B: file-type's first confident check is `BM` at offset 0
      return b[1] === 0x4d ? 'bmp' : undefined;
    case 0x25: // %
      return at(b, 0, '%PDF-') ? 'pdf' : undefined;
    case 0x43: // C
      return at(b, 0, 'Cr24') ? 'crx' : undefined;
    case 0x64: // d
      return at(b, 0, 'dex\n') ? 'dex' : undefined;
    case 0x23: // #
      return b[1] === 0x21 ? 'shell-script' : undefined;
    case 0x50: // P
      return b.length >= 4 && b[1] === 0x4b && ((b[2] === 0x03 && b[3] === 0x04) || (b[2] === 0x05 && b[3] === 0x06))
        ? 'zip'
        : undefined;
    case 0xd0:
      return at(b, 0, cfbSignature) ? 'cfb' : undefined;
    default:
      return undefined;
  }
}

// an acTL chunk before the first IDAT makes a PNG animated (APNG spec §2)
function pngOrApng(b: Uint8Array): string {
  let offset = 8;
  for (let n = 0; n < apngChunkWalk && offset + 8 <= b.length; n++) {
    if (at(b, offset + 4, 'acTL')) return 'apng';
    if (at(b, offset + 4, 'IDAT') || at(b, offset + 4, 'IEND')) return 'png';
    const length =
      ((b[offset] ?? 0) * 0x1000000 +
        ((b[offset + 1] ?? 0) << 16) +
        ((b[offset + 2] ?? 0) << 8) +
        (b[offset + 3] ?? 0)) >>>
      0;
    offset += 12 + length;
  }
  return 'png';
}

let fileType: Promise<typeof import('file-type')> | undefined;

// file-type (and its tokenizer and debug dependencies) is about a third of the library's import time, and most
// decisions (every link decision, and reads of the formats recognised above) never need it: load it on first use
function loadFileType(): Promise<typeof import('file-type')> {
  fileType ??= import('file-type');
  return fileType;
}

/** What file-type 21 names the leading `sniffBytes` bytes as, mapped to our kind ids; null when it names nothing. */
export async function fileTypeKind(bytes: Uint8Array): Promise<string | null> {
  const { fileTypeFromBuffer } = await loadFileType();
  const found = await fileTypeFromBuffer(bytes.subarray(0, sniffBytes));
  return found === undefined ? null : kindOfFileType(found.ext, found.mime);
}

/** The kind named by a binary signature at offset 0, or null when nothing recognizes the bytes. */
export async function binaryKind(bytes: Uint8Array): Promise<string | null> {
  return knownSignatureKind(bytes) ?? (await fileTypeKind(bytes));
}
