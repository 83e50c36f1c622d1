import { describe, expect, test } from 'vitest';
import { lineSplitter, oversizeHeadBytes } from '../../src/proxy/json-lines.ts';

function split(chunks: readonly string[], max: number): { lines: string[]; oversize: string[] } {
  const lines: string[] = [];
  const oversize: string[] = [];
  const splitter = lineSplitter(max, {
    onLine: (l) => lines.push(l.text.replace(/\n$/, '')),
    onOversize: (h) => oversize.push(h.toString()),
  });
  for (const c of chunks) splitter.push(Buffer.from(c));
  return { lines, oversize };
}

describe('lineSplitter', () => {
  test('lines split across chunks, several lines in one chunk, a trailing partial line kept', () => {
    expect(split(['{"a"', ':1}\n{"b":2}\n{"c"', ':3}\n{"d'], 100)).toEqual({
      lines: ['{"a":1}', '{"b":2}', '{"c":3}'],
      oversize: [],
    });
  });

  test('a line in many parts keeps its bytes as they came, joined once, and decodes characters split between chunks', () => {
    const text = '{"t":"añ€😀 end"}\n';
    const bytes = Buffer.from(text);
    const got: Array<{ text: string; bytes: Buffer; parts: number }> = [];
    const splitter = lineSplitter(100, {
      onLine: (l) => got.push({ text: l.text, bytes: Buffer.concat(l.parts), parts: l.parts.length }),
      onOversize: () => {},
    });
    // one byte at a time: every multi-byte character is cut
    for (let i = 0; i < bytes.length; i += 1) splitter.push(bytes.subarray(i, i + 1));
    // one buffer: decoded once when the line is complete (no string per chunk), forwarded in one piece
    expect(got).toEqual([{ text, bytes, parts: 1 }]);
  });

  test('a line over the cap is reported once by its head and skipped; the next line goes on', () => {
    const big = `{"id":4,"x":"${'A'.repeat(50)}"}`;
    expect(split([big.slice(0, 20), big.slice(20), '\n{"ok":1}\n'], 30)).toEqual({
      lines: ['{"ok":1}'],
      oversize: [big],
    });
  });

  test('a whole oversize line in one chunk is reported and the following lines kept', () => {
    expect(split([`${'B'.repeat(40)}\nshort\n`], 10)).toEqual({ lines: ['short'], oversize: [`${'B'.repeat(40)}\n`] });
  });

  test('the head of an oversize line is bounded, whatever the line’s size', () => {
    const lines: string[] = [];
    const heads: number[] = [];
    const splitter = lineSplitter(1024, {
      onLine: (l) => lines.push(l.text.replace(/\n$/, '')),
      onOversize: (h) => heads.push(h.length),
    });
    const chunk = Buffer.alloc(1024 * 1024, 65);
    for (let i = 0; i < 8; i += 1) splitter.push(chunk);
    splitter.push(Buffer.from('\nnext\n'));
    expect({ lines, heads }).toEqual({ lines: ['next'], heads: [oversizeHeadBytes] });
    expect(splitter.rest()).toBeNull();
  });
});

describe('lineSplitter: the end of an oversize line', () => {
  test.each([
    ['in many chunks', 4096],
    ['in one chunk', 1 << 20],
  ])('its last bytes are reported once it ends (%s), bounded, then the next line goes on', (_n, chunkBytes) => {
    const line = `{"result":{"text":"${'A'.repeat(300 * 1024)}"},"jsonrpc":"2.0","id":"r-9"}\nnext\n`;
    const bytes = Buffer.from(line);
    const tails: string[] = [];
    const lines: string[] = [];
    const splitter = lineSplitter(1024, {
      onLine: (l) => lines.push(l.text.replace(/\n$/, '')),
      onOversize: () => {},
      onOversizeEnd: (t) => tails.push(t.toString()),
    });
    for (let i = 0; i < bytes.length; i += chunkBytes) splitter.push(bytes.subarray(i, i + chunkBytes));
    expect(lines).toEqual(['next']);
    expect(tails).toHaveLength(1);
    expect(tails[0]?.length).toBeLessThanOrEqual(oversizeHeadBytes);
    expect(tails[0]?.trimEnd().endsWith('"jsonrpc":"2.0","id":"r-9"}')).toBe(true);
  });
  test('a line reads as its UTF-8 decoding: ASCII, other characters, and bytes that are not UTF-8', () => {
    const lines = [
      Buffer.from('{"a":"plain \\u00e9 ascii"}\n'),
      Buffer.from('{"a":"añ€😀"}\n'),
      Buffer.concat([
        Buffer.from('{"a":"'),
        Buffer.from([0xc3, 0x28, 0xff, 0x80, 0xed, 0xa0, 0x80]),
        Buffer.from('"}\n'),
      ]),
      Buffer.from([0x7f, 0x0a]),
    ];
    for (const bytes of lines) {
      const got: string[] = [];
      const splitter = lineSplitter(100, { onLine: (l) => got.push(l.text), onOversize: () => {} });
      // whole, and in two chunks
      splitter.push(bytes);
      splitter.push(bytes.subarray(0, 5));
      splitter.push(bytes.subarray(5));
      expect(got).toEqual([bytes.toString('utf8'), bytes.toString('utf8')]);
    }
  });
});
