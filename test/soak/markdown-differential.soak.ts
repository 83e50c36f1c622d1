// The markdown differential property (test/content/markdown/markdown-differential.ts) run long: longer texts,
// many more runs, a fresh seed each time (printed on failure; FC_SEED replays it).
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { markdownText, missedBy } from '../content/markdown/markdown-differential.ts';

test('whenever a renderer makes a page live, the gate does not allow the text (long run)', () => {
  fc.assert(
    fc.property(markdownText(40), (text) => {
      expect(missedBy(text), JSON.stringify(text)).toEqual([]);
    }),
    { numRuns: 100_000 },
  );
});
