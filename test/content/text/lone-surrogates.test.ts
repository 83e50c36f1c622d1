// A text carrier's lone surrogates are looked for in the string only when its UTF-8 bytes hold U+FFFD, which is what
// the encoding makes of each one: the finding is the string search's for any text.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { sniffContentSync } from '../../../src/content/sniff-content.ts';
import { hasLoneSurrogate } from '../../../src/content/text/text-encoding.ts';

test('a text carrier is reported for unpaired surrogates exactly when its string holds one (property)', () => {
  const unit = fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
    { weight: 2, arbitrary: fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ufffd', '\u{1f600}', 'x') },
  );
  // a NUL makes the bytes binary first: not read as text at all
  const texts = fc.array(unit, { maxLength: 16 }).map((parts) => parts.join('').replaceAll('\u0000', ' '));
  fc.assert(
    fc.property(texts, (text) => {
      const sniff = sniffContentSync(Buffer.from(text, 'utf8'), { text, declaredMime: 'text/plain' });
      const reported = sniff?.unsafe.includes('text holds unpaired utf-16 surrogates') ?? false;
      expect(reported).toBe(hasLoneSurrogate(text));
    }),
    { numRuns: 3000 },
  );
});
