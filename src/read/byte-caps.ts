// Byte caps are enforced on sizes known before decoding (STYLE: limits enforced before work).

/** Caps of one read, in decoded bytes. */
export interface ByteCaps {
  /** all items together, bytes */
  maxBytes: number;
  /** one item, bytes; absent means only the total applies */
  maxItemBytes?: number | undefined;
}

/** Why an item is over a cap: the setting it breaks and a one-line message. */
export interface CapBreach {
  rule: 'read.maxBytes' | 'read.maxItemBytes';
  message: string;
}

// what a read within its caps (nearly every read) gets: no map made per read
const noBreaches: ReadonlyMap<number, CapBreach> = new Map();

/** Applies per-item then running-total caps in item order; an item over a cap does not count toward the total, so later items that fit are kept. */
export function applyByteCaps(
  items: readonly { index: number; bytes: number }[],
  caps: ByteCaps,
): ReadonlyMap<number, CapBreach> {
  let breaches: Map<number, CapBreach> | undefined;
  let total = 0;
  for (const { index, bytes } of items) {
    if (caps.maxItemBytes !== undefined && bytes > caps.maxItemBytes) {
      (breaches ??= new Map()).set(index, {
        rule: 'read.maxItemBytes',
        message: `the item has ${bytes} bytes, over the per-item cap of ${caps.maxItemBytes} bytes`,
      });
      continue;
    }
    if (total + bytes > caps.maxBytes) {
      (breaches ??= new Map()).set(index, {
        rule: 'read.maxBytes',
        message: `the item (${bytes} bytes) would bring the read to ${total + bytes} bytes, over the cap of ${caps.maxBytes} bytes`,
      });
      continue;
    }
    total += bytes;
  }
  return breaches ?? noBreaches;
}
