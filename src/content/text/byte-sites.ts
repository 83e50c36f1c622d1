// Where the polyglot checks of a binary body may find something: the byte classifier's module (byte-classes.wat,
// `sites`) reads the bytes 16 at a time and lists the offsets of the byte pairs those checks start at, so that an
// image's megabytes of pixel data are looked at closely only where such a pair stands (in random bytes about one
// offset in 1,400), not at every `<`, `=`, `:` and `&`. The list is exactly the offsets where such a pair stands (the
// module's tables find the blocks that may hold one, and its bytes are compared there); each check still reads the
// bytes themselves at each offset, and decides; the module decides nothing.
import { bytesAt, classifierFor, classifierHolding } from './byte-classes.ts';

/** Entries of the module's list per call (eight bytes each): one call reads at most this many blocks. */
const listEntries = 4096;
// zero bytes after the last one: the module reads whole chunks of 64 bytes and the block after the last one
const slack = 96;

// the sites of the bytes last listed, kept only while a sniff judges one body (`keepingPairSites`): its readings ask
// for them two or three times. Not a WeakMap keyed by the bytes: each body is a fresh view, and a table of young
// ephemerons made every scavenge take 15-35 ms (4 of a 1 KiB read decision's 12 µs were garbage collection)
let keptBytes: Uint8Array | null = null;
let keptSites: Int32Array | null = null;
let keeping = 0;
// one answer read from the kept sites (site-marks.ts), made once per kept body and let go with them: held no longer
// than the sites are (a `WeakRef` to the sites cost about 1 µs a body, a sixth of a 1 KiB read decision)
let keptAnswer: unknown = null;
let keptAnswerOf: ((bytes: Uint8Array, sites: Int32Array) => unknown) | null = null;
/** The most offsets the gathering array keeps room for between bodies (4 MiB). */
const keptEntries = 1 << 20;
let scratch = new Int32Array(4096);

/**
 * The offsets in `bytes`, ascending, at which a pair starts that may begin one of: `<` and a tag's first letter (s o e
 * a h l i f, either case), `&#` and `&c` (either case), `t` or `a` (either case), TAB, LF, CR or `;` followed by `:`,
 * an ASCII letter after another one or HTML white space (space, TAB, LF, FF, CR), followed by `=`, and the PDF
 * markers' `%P` `%%` `st` `tr`. Exactly the offsets where such a pair stands are listed. Made once per body while
 * `keepingPairSites` runs (the same bytes object answers from memory), anew otherwise.
 */
export function pairSites(bytes: Uint8Array): Int32Array {
  if (bytes === keptBytes && keptSites !== null) return keptSites;
  const sites = findSites(bytes);
  if (keeping > 0) {
    keptBytes = bytes;
    keptSites = sites;
    keptAnswer = keptAnswerOf = null;
  }
  return sites;
}

/** `answer(bytes, sites)` of the pair sites of `bytes`: made once while those sites are kept (`keepingPairSites`), for the body they were listed for only, and anew otherwise. One answer is kept at a time. */
export function answerOfSites<T>(bytes: Uint8Array, answer: (bytes: Uint8Array, sites: Int32Array) => T): T {
  const sites = pairSites(bytes);
  if (sites !== keptSites) return answer(bytes, sites);
  if (keptAnswerOf !== answer) {
    keptAnswer = answer(bytes, sites);
    keptAnswerOf = answer;
  }
  return keptAnswer as T;
}

/** Runs `judge` with the pair sites of the bytes it lists kept until it returns (one body's readings share them), then lets them go. */
export function keepingPairSites<T>(judge: () => T): T {
  keeping++;
  try {
    return judge();
  } finally {
    keeping--;
    if (keeping === 0) {
      keptBytes = keptSites = null;
      keptAnswer = keptAnswerOf = null;
    }
  }
}

function findSites(bytes: Uint8Array): Int32Array {
  const listBytes = listEntries * 8;
  // a body held in the module's memory is read where it is; other bytes are copied in
  const held = classifierHolding(bytes, slack + listBytes + 8);
  const { memory, sites } = held ?? classifierFor(bytes.length, slack + listBytes + 8);
  const mem = new Uint8Array(memory.buffer);
  if (held === undefined) mem.set(bytes, bytesAt);
  // the bytes after the last one read as zero: no pair starts with or just before them; the byte before the first one
  // too (the module reads it for a letter before a letter and `=`)
  mem.fill(0, bytesAt + bytes.length, bytesAt + bytes.length + slack);
  mem[bytesAt - 1] = 0;
  const listAt = (bytesAt + bytes.length + slack + 7) & ~7;
  const list = new Int32Array(memory.buffer, listAt, listEntries * 2);
  // the offsets are gathered in one array kept for the process and copied out at their count: a new array grown by
  // doubling was a zeroed allocation and a copy at each step (a fifth of the pass over an image's megabyte)
  let found = scratch;
  let count = 0;
  const end = bytesAt + bytes.length;
  for (let from = bytesAt; from < end; from += listEntries * 16) {
    const listEnd = sites(from, Math.min(from + listEntries * 16, (end + 63) & ~63), listAt);
    for (let e = 0; e < (listEnd - listAt) >> 2; e += 2) {
      const block = (list[e] ?? 0) - bytesAt;
      for (let mask = list[e + 1] ?? 0; mask !== 0; mask &= mask - 1) {
        const at = block + 31 - Math.clz32(mask & -mask);
        if (at >= bytes.length) break;
        if (count === found.length) {
          const grown = new Int32Array(count * 2);
          grown.set(found);
          found = grown;
        }
        found[count++] = at;
      }
    }
  }
  // a larger array is kept only up to a bound (bytes dense with pairs may list one offset per byte)
  if (found.length <= keptEntries) scratch = found;
  return found.slice(0, count);
}
