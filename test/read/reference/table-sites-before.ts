// The pair sites as the byte classifier's module listed them before it compared the bytes of each block its tables
// mark (the reference of test/read/scanner-differential.test.ts): its pair tables (byte-classes.wat, at 96 to 160,
// unchanged) read one offset at a time, the byte before the first block of each call of 64 KiB taking every class.
import { classifierFor } from '../../../src/content/text/byte-classes.ts';

const tables = new Uint8Array(classifierFor(0).memory.buffer, 96, 64).slice();
const pairClasses = (b: number): number => (tables[b & 15] ?? 0) & (tables[16 + (b >> 4)] ?? 0);
const nextClasses = (b: number): number => (tables[32 + (b & 15)] ?? 0) & (tables[48 + (b >> 4)] ?? 0);

/** The offsets `pairSites` listed before: a superset of the pairs it names. */
export function pairSitesBefore(bytes: Uint8Array): number[] {
  const sites: number[] = [];
  for (let at = 0; at < bytes.length; at++) {
    const before = at % 65_536 === 0 ? 0xff : pairClasses(bytes[at - 1] ?? 0);
    if ((pairClasses(bytes[at] ?? 0) & nextClasses(bytes[at + 1] ?? 0) & (0xf7 | before)) !== 0) sites.push(at);
  }
  return sites;
}
