// Valid UTF-8 is scanned for the text checks before the sniff decides text or binary (sniff-text.ts `scanUtf8Early`):
// that scan must find a NUL wherever it lies, as the NUL search it replaces did, or a NUL-holding body would be read
// as text first.
import { describe, expect, test } from 'vitest';
import { sniffContent } from '../../../src/content/sniff-content.ts';

const nulAt = (head: string, at: number, tail = 'b'.repeat(600)) =>
  Buffer.concat([Buffer.from(head.padEnd(at, 'a')), Buffer.from([0]), Buffer.from(tail)]);

describe('the early scan of valid UTF-8', () => {
  test.each([
    ['`MZ` with a NUL in its first 4 KiB (no early scan)', nulAt('MZ', 10), 'pe', false],
    ['`MZ` with a NUL past its first 4 KiB', nulAt('MZ', 5000), 'pe', false],
    ['`MZ` with a NUL at the very end of 1 MiB', nulAt('MZ', 1 << 20, ''), 'pe', false],
    ['`MZ` and no NUL', Buffer.from(`MZ${'a'.repeat(5000)}`), 'text', true],
    ['`%PDF-` with a NUL past 4 KiB', nulAt('%PDF-1.4\n', 5000, ''), 'pdf', false],
  ])('%s', async (_, bytes, kind, textual) => {
    const sniff = await sniffContent(bytes, {});
    expect(sniff.kind).toBe(kind);
    expect(sniff.textual).toBe(textual);
  });

  test('text with a NUL past its first 4 KiB is text that holds NUL characters, found once', async () => {
    const sniff = await sniffContent(nulAt('hello <b>x</b> '.repeat(400), 6000, 'tail'), {});
    expect(sniff.kind).toBe('text');
    expect(sniff.unsafe).toEqual(['text holds nul characters']);
  });
});
