import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines, type InputLine } from '../../src/cli/read-lines.ts';

async function collect(chunks: string[], max: number): Promise<InputLine[]> {
  const out: InputLine[] = [];
  for await (const line of readLines(Readable.from(chunks.map((c) => Buffer.from(c))), max)) out.push(line);
  return out;
}

describe('readLines', () => {
  it.each([
    { name: 'lf lines', chunks: ['a\nb\n'], want: ['a', 'b'] },
    { name: 'crlf lines', chunks: ['a\r\nb\r\n'], want: ['a', 'b'] },
    { name: 'no final newline', chunks: ['a\nb'], want: ['a', 'b'] },
    { name: 'line split across chunks', chunks: ['{"x":', '1}\n{"y"', ':2}\n'], want: ['{"x":1}', '{"y":2}'] },
    { name: 'blank line kept', chunks: ['a\n\nb\n'], want: ['a', '', 'b'] },
  ])('$name', async ({ chunks, want }) => {
    const lines = await collect(chunks, 100);
    expect(lines.map((l) => (l.kind === 'line' ? l.text : '#'))).toEqual(want);
  });

  it('refuses a line over the limit without holding it, and goes on', async () => {
    const lines = await collect(['short\n', 'x'.repeat(30), 'y'.repeat(30), '\nnext\n'], 40);
    expect(lines).toEqual([
      { kind: 'line', text: 'short', number: 1 },
      { kind: 'too-long', bytes: 60, number: 2 },
      { kind: 'line', text: 'next', number: 3 },
    ]);
  });

  it('does not split a multi-byte character across chunks', async () => {
    const bytes = Buffer.from('é\n');
    const lines: InputLine[] = [];
    for await (const l of readLines(Readable.from([bytes.subarray(0, 1), bytes.subarray(1)]), 10)) lines.push(l);
    expect(lines).toEqual([{ kind: 'line', text: 'é', number: 1 }]);
  });
});
