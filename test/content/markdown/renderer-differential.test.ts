// The differential property over every real renderer (markdown-differential.ts), a fixed-seed run; the soak suite
// runs it long (test/soak/markdown-differential.soak.ts).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { markdownText, missedBy, realRenderers } from './markdown-differential.ts';

describe('every renderer as its users run it, against the gate', () => {
  test('the renderers are the ones the gate asks, five of them', () => {
    expect(Object.keys(realRenderers)).toHaveLength(5);
  });

  test('whenever a renderer makes a page live, the gate does not allow the text (fixed seed)', () => {
    fc.assert(
      fc.property(markdownText(), (text) => {
        expect(missedBy(text), JSON.stringify(text)).toEqual([]);
      }),
      { seed: 20261204, numRuns: 2000 },
    );
  });
});
