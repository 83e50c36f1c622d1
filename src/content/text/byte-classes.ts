// The byte classifier in front of the exact UTF-8 scan: a WebAssembly module (byte-classes.wat) reads the bytes 16 at
// a time with one table lookup per nibble, where a JavaScript pass reads them one or four at a time, and points the
// exact scan at the blocks that may hold an unsafe or invisible character; on the way it notes which of the ASCII
// marks the later searches look for occur at all, so that a search for a mark the text lacks is skipped. The module
// is our own constant bytes, compiled once; it sees only the bytes it classifies and decides nothing alone.
import { byteClassesWasm } from './byte-classes-wasm.ts';

// memory layout (byte-classes.wat): the classes seen at 80, the bytes from 256 on, then 32 bytes it may read past
const seenAt = 80;
/** Where the module reads the bytes it classifies from. */
export const bytesAt = 256;
const slack = 32;
const pageBytes = 65_536;

// the mark classes of byte-classes.wat: a bit each for `:` `<` `=`, for `&`, for `[` `\`
const markBits: ReadonlyMap<number, number> = new Map([
  [0x3a, 0x20],
  [0x3c, 0x20],
  [0x3d, 0x20],
  [0x26, 0x40],
  [0x5b, 0x80],
  [0x5c, 0x80],
]);

/** The ASCII bytes whose presence `classifyBlocks` notes: `:` `<` `=` `&` `[` `\`. */
export const classifiedMarks: readonly number[] = [...markBits.keys()];

// the part of the WebAssembly API used here (the project's lib has no DOM types, where it is declared)
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
/** The module's exports (byte-classes.wat). */
export interface Classifier {
  memory: WasmMemory;
  scan: (from: number, end: number, leads: number) => number;
  sites: (from: number, end: number, out: number) => number;
}

let classifier: Classifier | undefined;

/** The module's one instance for the process, its memory grown to hold `length` bytes from `bytesAt` and `extra` bytes after them (the read caps bound it). */
export function classifierFor(length: number, extra = 0): Classifier {
  if (classifier === undefined) {
    const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const instance = new wasm.Instance(new wasm.Module(Buffer.from(byteClassesWasm, 'base64')));
    classifier = instance.exports as Classifier;
  }
  const need = bytesAt + length + slack + extra;
  const have = classifier.memory.buffer.byteLength;
  if (need > have) classifier.memory.grow(Math.ceil((need - have) / pageBytes));
  return classifier;
}

/**
 * Classifies `bytes` 16 at a time: calls `block(from, to)` (offsets into `bytes`, in order) for each block that may
 * hold a C0 control other than TAB, LF and CR, or the start of a C1 control or a TAG character, and when `invisible`
 * of a bidi or zero-width character (U+061C, U+180E, U+FEFF, U+200B–U+2069), and for the bytes after the last whole
 * block; never skips a block holding one. Returns `mayHold(byte)`: false only for a byte of `classifiedMarks` that
 * occurs nowhere in them.
 */
export function classifyBlocks(
  bytes: Uint8Array,
  invisible: boolean,
  block: (from: number, to: number) => void,
): (byte: number) => boolean {
  const { memory, scan } = classifierFor(bytes.length);
  const mem = new Uint8Array(memory.buffer);
  mem.set(bytes, bytesAt);
  mem.fill(0, seenAt, seenAt + 16);
  const end = bytesAt + (bytes.length & ~15);
  // the lead classes that stop the scan (byte-classes.wat): C2 and F3 (with D8), and E1, E2 and EF for invisible ones
  const leads = invisible ? 0x1f : 0x0f;
  for (let at = scan(bytesAt, end, leads); at < end; at = scan(at + 16, end, leads))
    block(at - bytesAt, at - bytesAt + 16);
  let seen = 0;
  for (let i = seenAt; i < seenAt + 16; i++) seen |= mem[i] ?? 0;
  const tail = end - bytesAt;
  if (tail < bytes.length) {
    block(tail, bytes.length);
    for (let i = tail; i < bytes.length; i++) seen |= markBits.get(bytes[i] ?? 0) ?? 0;
  }
  return (byte) => {
    const bit = markBits.get(byte);
    return bit === undefined || (seen & bit) !== 0;
  };
}
