import { crc32, deflateSync } from 'node:zlib';

/** A valid PNG of `width` × `height` pixels (RGB, one colour), generated in code; dimensions in pixels, ≥ 1. */
export function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x5a)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The 64-byte header of an x86-64 ELF executable followed by `bodyBytes` bytes of code-like filler. */
export function makeElf(bodyBytes = 192): Buffer {
  const out = Buffer.alloc(64 + bodyBytes, 0x90);
  out.fill(0, 0, 64);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(out, 0); // magic, 64-bit, little-endian, version 1
  out.writeUInt16LE(2, 16); // e_type: executable
  out.writeUInt16LE(0x3e, 18); // e_machine: x86-64
  out.writeUInt32LE(1, 20); // e_version
  out.writeBigUInt64LE(0x401000n, 24); // e_entry
  out.writeUInt16LE(64, 52); // e_ehsize
  return out;
}
