// Text in a single-byte charset (ISO-8859-1 / windows-1252): bytes a browser calls text, read as a browser reads them.

// MIME Sniffing §7.2's binary data bytes: 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F (not tab, line feed, form feed,
// carriage return or escape)
const binaryDataByte = new Uint8Array(0x20);
for (let b = 0; b < 0x20; b++)
  binaryDataByte[b] = b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || b >= 0x1c ? 1 : 0;

/** True when `bytes` hold no binary data byte (MIME Sniffing §7.2): a browser calls such a body text, whatever its bytes ≥ 0x80. */
export function holdsNoBinaryDataByte(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b < 0x20 && binaryDataByte[b] === 1) return false;
  }
  return true;
}

// made on first use: a windows-1252 decoder costs about a third of a millisecond to make (docs/speed.md), and most
// bodies are UTF-8
let windows1252: InstanceType<typeof TextDecoder> | undefined;

/** Bytes decoded as windows-1252, as a browser decodes text that names no charset (WHATWG Encoding: `latin1`, `iso-8859-1` are its labels). */
export function decodeWindows1252(bytes: Uint8Array): string {
  windows1252 ??= new TextDecoder('windows-1252');
  return windows1252.decode(bytes);
}
