// HEIF/AVIF item structure (ISO/IEC 23008-12, ISO/IEC 14496-12): the size a decoder shows is the primary
// item's (`pitm`) image spatial extents (`ispe`), found through the item property associations (`ipma`) into
// the property container (`ipco`) of the file-level `meta` box. A first `ispe` anywhere else (a decoy in
// another box, a thumbnail's, an unassociated one) says nothing about what is decoded. Linear in the boxes
// read; every read checks its bounds.
import { WorkBudget } from '../work-budget.ts';

/** The primary image's extents by its `ispe`, or why the box tree cannot be read the way a decoder reads it. */
export type HeifPrimary = { ok: true; width: number; height: number } | { ok: false; why: string };

interface Box {
  type: string;
  /** first byte of the payload (past size, type and any 64-bit size) */
  body: number;
  /** offset just past the box */
  end: number;
}

class Malformed extends Error {}

// boxes in [from, to): each must fit; a size of 0 runs to `to`
function* boxes(b: Buffer, from: number, to: number, budget: WorkBudget): Generator<Box> {
  let at = from;
  while (at < to) {
    budget.spend('image', 16);
    if (at + 8 > to) throw new Malformed('a box header runs past its parent');
    let size = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > to) throw new Malformed(`box \`${type}\` has a cut 64-bit size`);
      const big = b.readBigUInt64BE(at + 8);
      if (big > BigInt(to - at)) throw new Malformed(`box \`${type}\` runs past its parent`);
      size = Number(big);
      body = at + 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < body - at || at + size > to) throw new Malformed(`box \`${type}\` runs past its parent`);
    yield { type, body, end: at + size };
    at += size;
  }
}

function only(b: Buffer, from: number, to: number, type: string, budget: WorkBudget): Box | null {
  let found: Box | null = null;
  for (const box of boxes(b, from, to, budget)) {
    if (box.type !== type) continue;
    // decoders reject a second one (libavif: "multiple boxes"); which one another reader takes is unknown
    if (found !== null) throw new Malformed(`more than one \`${type}\` box`);
    found = box;
  }
  return found;
}

function need(box: Box, bytes: number, what: string): void {
  if (box.end - box.body < bytes) throw new Malformed(`\`${what}\` box is too short`);
}

/** Reads the primary item's `ispe` from the file-level `meta` box among the top-level boxes in [0, `end`). */
export function heifPrimaryExtents(
  b: Buffer,
  end: number = b.length,
  budget: WorkBudget = WorkBudget.unlimited(),
): HeifPrimary {
  try {
    const meta = only(b, 0, end, 'meta', budget);
    if (meta === null) return { ok: false, why: 'no file-level `meta` box' };
    need(meta, 4, 'meta');
    const children = meta.body + 4;
    const pitm = only(b, children, meta.end, 'pitm', budget);
    if (pitm === null) return { ok: false, why: 'no primary item (`pitm`)' };
    need(pitm, 6, 'pitm');
    const pitmVersion = b[pitm.body] ?? 0;
    if (pitmVersion !== 0) need(pitm, 8, 'pitm');
    const primary = pitmVersion === 0 ? b.readUInt16BE(pitm.body + 4) : b.readUInt32BE(pitm.body + 4);
    const iprp = only(b, children, meta.end, 'iprp', budget);
    if (iprp === null) return { ok: false, why: 'no item properties (`iprp`)' };
    const ipco = only(b, iprp.body, iprp.end, 'ipco', budget);
    if (ipco === null) return { ok: false, why: 'no property container (`ipco`)' };
    const properties = [...boxes(b, ipco.body, ipco.end, budget)];
    let extents: Box | null = null;
    for (const ipma of boxes(b, iprp.body, iprp.end, budget)) {
      if (ipma.type !== 'ipma') continue;
      for (const index of associations(b, ipma, primary, budget)) {
        if (index === 0) continue;
        const property = properties[index - 1];
        if (property === undefined) throw new Malformed(`property index ${index} past the \`ipco\` box`);
        if (property.type !== 'ispe') continue;
        // libavif and libheif reject an item with two `ispe` associations
        if (extents !== null && extents !== property) throw new Malformed('the primary item has two `ispe` properties');
        extents = property;
      }
    }
    if (extents === null) return { ok: false, why: 'the primary item has no `ispe` property' };
    need(extents, 12, 'ispe');
    return { ok: true, width: b.readUInt32BE(extents.body + 4), height: b.readUInt32BE(extents.body + 8) };
  } catch (error) {
    if (error instanceof Malformed) return { ok: false, why: error.message };
    if (
      error instanceof RangeError &&
      !(error instanceof Malformed) &&
      /out of range|outside buffer/i.test(error.message)
    )
      return { ok: false, why: 'a box is cut short' };
    throw error;
  }
}

// the property indices (1-based, 0: none) one `ipma` box associates with `item`
function associations(b: Buffer, ipma: Box, item: number, budget: WorkBudget): number[] {
  need(ipma, 8, 'ipma');
  const version = b[ipma.body] ?? 0;
  const wide = ((b[ipma.body + 3] ?? 0) & 1) === 1;
  const count = b.readUInt32BE(ipma.body + 4);
  let at = ipma.body + 8;
  const found: number[] = [];
  let seen = false;
  for (let n = 0; n < count; n++) {
    budget.spend('image', 8);
    const idBytes = version < 1 ? 2 : 4;
    if (at + idBytes + 1 > ipma.end) throw new Malformed('`ipma` entries run past the box');
    const id = version < 1 ? b.readUInt16BE(at) : b.readUInt32BE(at);
    const many = b[at + idBytes] ?? 0;
    at += idBytes + 1;
    const size = wide ? 2 : 1;
    if (at + many * size > ipma.end) throw new Malformed('`ipma` associations run past the box');
    if (id === item) {
      if (seen) throw new Malformed('the primary item is listed twice in `ipma`');
      seen = true;
      for (let k = 0; k < many; k++) found.push(wide ? b.readUInt16BE(at + 2 * k) & 0x7fff : (b[at + k] ?? 0) & 0x7f);
    }
    budget.spend('image', many);
    at += many * size;
  }
  return found;
}
