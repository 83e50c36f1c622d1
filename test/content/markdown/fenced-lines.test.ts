// The cutting's one pass over a text's lines (fenced-lines.ts): its offsets and flags against a reading of each line
// as its own string, on texts mixing line breaks, characters outside ASCII (four-byte ones and lone surrogates), fences
// and the marks it records.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fencedLines, LineFlag } from '../../../src/content/markdown/fenced-lines.ts';

const pieces = [
  '\n',
  '\r\n',
  '\r',
  '\n\n',
  '  ',
  '\t',
  'a',
  '<b>',
  '`',
  '``',
  '~~',
  '[x]',
  'é',
  '😀',
  '\ud800',
  '```\n',
  '- a',
];

// each line as the text's own split makes it: start, end (UTF-16) and its UTF-8 start
function naiveLines(text: string): { start: number; end: number; byte: number }[] {
  const lines: { start: number; end: number; byte: number }[] = [];
  for (let start = 0; start < text.length; ) {
    let end = start;
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    lines.push({ start, end, byte: Buffer.byteLength(text.slice(0, start)) });
    start = text[end] === '\r' && text[end + 1] === '\n' ? end + 2 : end + 1;
  }
  return lines;
}

describe('fencedLines', () => {
  test('offsets, blank lines and marks agree with each line read as its own string', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (chosen) => {
        const text = chosen.join('');
        const bytes = Buffer.from(text, 'utf8');
        const lines = fencedLines(text, bytes, 4096);
        const naive = naiveLines(text);
        // runs of fences of many lengths may make the readings too many to follow: the lines up to there are kept
        expect(lines.count).toBeLessThanOrEqual(naive.length);
        naive.slice(0, lines.count).forEach((line, i) => {
          const content = text.slice(line.start, line.end);
          expect([lines.start[i], lines.end[i], lines.byte[i]]).toEqual([line.start, line.end, line.byte]);
          const flags = lines.flags[i] ?? 0;
          expect((flags & LineFlag.blank) !== 0).toBe(/^[ \t]*$/.test(content));
          expect((flags & LineFlag.lt) !== 0).toBe(content.includes('<'));
          expect((flags & LineFlag.span) !== 0).toBe(/[`[]/.test(content));
        });
        expect(lines.blocks.lines).toBe(naive.length);
        expect(lines.indented.lines).toBe(naive.length);
      }),
      { numRuns: 500 },
    );
  });

  test('a fenced line is code in every reading, and the line after the closing fence is not', () => {
    const text = 'a\n\n```\n<b>\n```\n\nc\n';
    const lines = fencedLines(text, Buffer.from(text), 4096);
    const code = Array.from(lines.flags.subarray(0, lines.count), (f) => (f & LineFlag.code) !== 0);
    expect(code).toEqual([false, false, false, true, false, false, false]);
  });
});
