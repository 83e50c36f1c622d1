// The reading in front of the markdown cuts stays linear in the text (issue 41 item 4: the work counted, not timed):
// marked's raw text after an inline `<code>` is followed line by line, and each line's break was searched for from
// that line to the end of the text when the text had no `\r` (every text written with `\n` alone): an 8 MiB text of
// READMEs spent a second of CPU there, and a text of short lines after one `<code>` grows with the square of its lines.
import { describe, expect, test } from 'vitest';
import { markedRawText } from '../../../src/content/markdown/raw-html-grammar.ts';

// bytes whose searches count the bytes they read (to the match, or to the end when there is none)
class CountedBytes extends Uint8Array {
  read = 0;

  override indexOf(value: number, from = 0): number {
    const found = super.indexOf(value, from);
    this.read += (found === -1 ? this.length : found + 1) - from;
    return found;
  }
}

describe("marked's raw text is followed in one pass", () => {
  test.each([
    ['\\n', '\n'],
    ['\\r\\n', '\r\n'],
    ['\\r', '\r'],
  ])('lines ending %s after an inline <code>: the searches read each byte a bounded number of times', (_name, eol) => {
    const lines = 20_000;
    const text = `Use <code>spawn${eol}${`a${eol}`.repeat(lines)}<b${eol}`;
    const bytes = new CountedBytes(Buffer.from(text, 'utf8'));
    const raw = markedRawText(bytes);
    // asked at the last tag, and at every line on the way (the two ways rawTagSpans asks)
    expect(raw(text.lastIndexOf('<b'))).toBe(true);
    expect(bytes.read).toBeLessThan(4 * bytes.length);
    const each = new CountedBytes(Buffer.from(text, 'utf8'));
    const rawEach = markedRawText(each);
    for (let at = 0; at < text.length; at += eol.length + 1) rawEach(at);
    expect(each.read).toBeLessThan(4 * each.length);
  });

  test('a blank line still ends the raw text, whatever the line breaks', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = `a <kbd>x${eol}b${eol}${eol}c <b${eol}`;
      const raw = markedRawText(Buffer.from(text, 'utf8'));
      expect(raw(text.indexOf('b'))).toBe(true);
      expect(raw(text.indexOf('c <b'))).toBe(false);
    }
  });
});
