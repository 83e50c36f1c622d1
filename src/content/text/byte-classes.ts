// The byte classifier in front of the exact UTF-8 scan: a WebAssembly module (byte-classes.wat) reads the bytes 16 at
// a time with one table lookup per nibble, where a JavaScript pass reads them one or four at a time, and points the
// exact scan at the blocks that may hold an unsafe or invisible character; on the way it notes which of the ASCII
// marks the later searches look for occur at all, so that a search for a mark the text lacks is skipped. The module
// is our own constant bytes, compiled once; it sees only the bytes it classifies and decides nothing alone.
import { byteClassesWasm } from './byte-classes-wasm.ts';

// memory layout (byte-classes.wat): the classes seen at 80, the bytes from 512 on, then 32 bytes it may read past
const seenAt = 80;
/** Where the module reads the bytes it classifies from. */
export const bytesAt = 512;
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

// the module's instances, made once each and kept for the process: a body held in place (`holdBody`) keeps its
// instance until it is let go, and any other bytes are copied into a free one
interface Slot {
  classifier: Classifier;
  /** the length of the body held at `bytesAt`, or -1 when the instance is free */
  held: number;
}
const slots: Slot[] = [];
/** What an instance holding a body keeps after it: the module's slack and the list `sites` writes (byte-sites.ts). */
export const heldExtra = 65_536;

function grown(slot: Slot, need: number): Classifier {
  const { memory } = slot.classifier;
  const have = memory.buffer.byteLength;
  if (need > have) memory.grow(Math.ceil((need - have) / pageBytes));
  return slot.classifier;
}

function freeSlot(): Slot {
  let slot = slots.find((s) => s.held === -1);
  if (slot === undefined) {
    const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const instance = new wasm.Instance(new wasm.Module(Buffer.from(byteClassesWasm, 'base64')));
    slot = { classifier: instance.exports as Classifier, held: -1 };
    slots.push(slot);
  }
  return slot;
}

/** A free instance of the module (none holds a body), its memory grown to hold `length` bytes from `bytesAt` and `extra` bytes after them (the read caps bound it). */
export function classifierFor(length: number, extra = 0): Classifier {
  return grown(freeSlot(), bytesAt + length + slack + extra);
}

/**
 * `length` bytes at `bytesAt` in a free instance's memory, held for one body until `releaseBody`: a reader writes the
 * body there (a base64 decode) and the checks read it in place, with no copy; the memory never grows while held, and
 * bytes outside the body are never written to it. A fresh view each time (a cache keyed by the view never answers
 * for another body).
 */
export function holdBody(length: number): Buffer {
  const slot = freeSlot();
  const { memory } = grown(slot, bytesAt + length + heldExtra);
  slot.held = length;
  // the module may read up to `slack` bytes past the body: zeros, never an earlier body's bytes
  new Uint8Array(memory.buffer).fill(0, bytesAt + length, bytesAt + length + slack);
  return Buffer.from(memory.buffer, bytesAt, length);
}

/** Lets go of a body `holdBody` gave: its instance is free again, and its bytes may be overwritten. */
export function releaseBody(body: Uint8Array): void {
  const slot = holding(body);
  if (slot !== undefined) slot.held = -1;
}

function holding(bytes: Uint8Array): Slot | undefined {
  return slots.find(
    (s) => s.held === bytes.length && bytes.byteOffset === bytesAt && bytes.buffer === s.classifier.memory.buffer,
  );
}

/** The instance whose memory holds all of `bytes` in place (a body `holdBody` gave, or a view of the whole of it) with room for `extra` bytes after them, or undefined: copy them into `classifierFor`'s instance instead. */
export function classifierHolding(bytes: Uint8Array, extra = 0): Classifier | undefined {
  const slot = holding(bytes);
  if (slot === undefined || bytesAt + bytes.length + slack + extra > slot.classifier.memory.buffer.byteLength)
    return undefined;
  return slot.classifier;
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
  const held = classifierHolding(bytes);
  const { memory, scan } = held ?? classifierFor(bytes.length);
  const mem = new Uint8Array(memory.buffer);
  if (held === undefined) mem.set(bytes, bytesAt);
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
