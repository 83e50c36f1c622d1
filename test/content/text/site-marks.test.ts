// The PDF markers and stylesheet start tags found in one loop over a body's pair sites (src/content/text/site-marks.ts):
// each answer is a search of every byte's, and an answer made for one body's sites is never read for other bytes.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { spellsAt } from '../../../src/content/ascii-bytes.ts';
import { binaryHoldsPdfStructure } from '../../../src/content/sniff-pdf.ts';
import { keepingPairSites } from '../../../src/content/text/byte-sites.ts';
import { siteMarks } from '../../../src/content/text/site-marks.ts';

const endsTagName = (b: number | undefined): boolean =>
  b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x2f || b === 0x3e;
const names = ['style', 'link'].map((w) => Buffer.from(w, 'latin1'));

// the answers as a search of every byte gives them
function everyByte(bytes: Buffer): { pdfMarker: boolean; stylesheetTag: boolean } {
  let stylesheetTag = false;
  for (let at = 0; at < bytes.length && !stylesheetTag; at++)
    if (bytes[at] === 0x3c)
      stylesheetTag = names.some((w) => spellsAt(bytes, at + 1, w) && endsTagName(bytes[at + 1 + w.length]));
  const pdfMarker = ['%PDF-', '%%EOF', 'startxref', 'trailer'].some((m) => bytes.includes(m, 0, 'latin1'));
  return { pdfMarker, stylesheetTag };
}

const planted = [
  '%PDF-',
  '%%EOF',
  'startxref',
  'trailer',
  '<style>',
  '<LINK ',
  '<link/',
  '<style',
  '<linkx',
  '<<',
  '%PD',
];

function withPlants(noise: number, plants: readonly string[], at: readonly number[]): Buffer {
  const bytes = randomBytes(noise);
  for (let k = 0; k < plants.length; k++) {
    const word = Buffer.from(plants[k] as string, 'latin1');
    word.copy(bytes, Math.min(noise - word.length, (at[k] ?? 0) % noise));
  }
  return bytes;
}

describe('site marks', () => {
  test('answer as a search of every byte does, planted anywhere and at the end (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 5000 }),
        fc.array(fc.constantFrom(...planted), { maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        (noise, plants, at) => {
          const bytes = withPlants(noise, plants, at);
          expect(siteMarks(bytes)).toEqual(everyByte(bytes));
        },
      ),
    );
  });

  test('an answer is made for the sites it was asked for: kept bodies in turn, and bytes changed between two asks', () => {
    const tagged = withPlants(4096, ['<style>'], [1000]);
    const marked = withPlants(4096, ['trailer'], [2000]);
    for (const bytes of [tagged, marked, tagged])
      keepingPairSites(() => {
        expect(siteMarks(bytes)).toEqual(everyByte(bytes));
        expect(siteMarks(bytes)).toEqual(everyByte(bytes));
      });
    // the same bytes object, its contents changed: outside a sniff its sites are listed anew, and so are the marks
    const bytes = Buffer.from(tagged);
    expect(siteMarks(bytes).stylesheetTag).toBe(true);
    bytes.fill(0x20, 990, 1010);
    expect(siteMarks(bytes)).toEqual(everyByte(bytes));
    expect(siteMarks(bytes).stylesheetTag).toBe(false);
  });

  test('pdf structure needs a marker and a `<<` anywhere, in either order', () => {
    for (const [plants, holds] of [
      [['trailer', '<<'], true],
      [['<<', '%%EOF'], true],
      [['startxref'], false],
      [['<<'], false],
    ] as const) {
      const bytes = withPlants(3000, plants, [100, 2500]).map((b) => (b === 0x3c ? 0x20 : b));
      for (const [k, word] of plants.entries()) Buffer.from(word, 'latin1').copy(bytes, k === 0 ? 100 : 2500);
      expect(binaryHoldsPdfStructure(Buffer.from(bytes)), plants.join(' ')).toBe(holds);
    }
  });
});
