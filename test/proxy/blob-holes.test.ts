import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { holedLine, holedLineBytes } from '../../src/proxy/blob-holes.ts';
import { lineSplitter, type Line } from '../../src/proxy/json-lines.ts';
import { parseLine } from '../../src/proxy/original-bytes.ts';

// what the proxy reads of a line's bytes, cut or whole: null when the line is taken whole (JSON.parse decides)
function readCut(bytes: Buffer, minHole: number): { value: unknown } | null {
  const holed = holedLine(bytes, minHole);
  if (holed === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(holed.text);
  } catch {
    return null;
  }
  return holed.fill(value) ? { value } : null;
}

// JSON.parse of the line as the transport decodes it
function parseWhole(bytes: Buffer): { value: unknown } | { error: true } {
  try {
    return { value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return { error: true };
  }
}

const b64Char = fc.constantFrom(...'ABCXYZabcxyz0189+/-_');
const base64 = fc
  .tuple(fc.array(fc.array(b64Char, { minLength: 4, maxLength: 4 }), { minLength: 2, maxLength: 6 }), fc.nat(2))
  .map(([groups, pads]) => {
    const text = groups.map((g) => g.join('')).join('');
    return pads === 0 ? text : text.slice(0, text.length - pads) + '='.repeat(pads);
  });
// what a long string may hold that is not base64, or that JSON reads otherwise (an escape, a quote, a control character)
const defect = fc.constantFrom(
  '\\',
  '"',
  '\\"',
  '\\\\',
  '\\u0041',
  '\u0001',
  '\u001f',
  '\n',
  '\t',
  ' ',
  '=',
  'é',
  '\u007f',
  '\\u0000',
);
const longString = fc.tuple(base64, fc.option(fc.tuple(defect, fc.nat()), { freq: 2 })).map(([text, bad]) => {
  if (bad === null) return text;
  const at = bad[1] % (text.length + 1);
  return text.slice(0, at) + bad[0] + text.slice(at);
});
// member names: repeated ones (JSON.parse keeps the last), escaped spellings of the same name, `__proto__`
const key = fc.constantFrom(
  '"blob"',
  '"b\\u006cob"',
  '"a"',
  '"contents"',
  '"__proto__"',
  '"\\u0000"',
  '"k\\"q"',
  '"é"',
  '"\\\\"',
);
const shortString = fc.constantFrom(
  '""',
  '"x"',
  '"\\u0000"',
  '"\\u00000"',
  '"a\\"b"',
  '"\\\\"',
  '"\\ud83d\\ude00"',
  '"é"',
  '"\\\\u0000"',
);
const scalar = fc.constantFrom('0', '-1.5e3', 'true', 'false', 'null', '12345678901234567890');
const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n ');

const { text: jsonText } = fc.letrec<{ text: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    shortString,
    longString.map((s) => `"${s}"`),
    fc
      .array(fc.tuple(space, tie('text'), space), { maxLength: 4 })
      .map((items) => `[${items.map(([a, v, b]) => a + v + b).join(',')}]`),
    fc
      .array(fc.tuple(space, key, space, tie('text'), space), { maxLength: 4 })
      .map((members) => `{${members.map(([a, k, b, v, c]) => `${a}${k}${b}:${v}${c}`).join(',')}}`),
  ),
}));

// a few structural characters put anywhere: the text may stop being JSON, or be JSON of another shape
const broken = fc
  .tuple(
    jsonText,
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', ' ')), { maxLength: 2 }),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [at, c] of edits) {
      const i = at % (out.length + 1);
      out = out.slice(0, i) + c + out.slice(i);
    }
    return out;
  });

describe('a line read with its long base64 strings cut out', () => {
  test('reads what JSON.parse reads, on every line it takes (escapes, \\u, duplicates, nesting, spaces)', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(jsonText, broken), space, (text, end) => {
        const bytes = Buffer.from(`${text}${end}\n`, 'utf8');
        const cut = readCut(bytes, 8);
        if (cut === null) return;
        taken += 1;
        const whole = parseWhole(bytes);
        expect(whole).toHaveProperty('value');
        expect(isDeepStrictEqual(cut.value, (whole as { value: unknown }).value)).toBe(true);
        expect(JSON.stringify(cut.value)).toBe(JSON.stringify((whole as { value: unknown }).value));
      }),
      { numRuns: 3000 },
    );
    // the property judged lines the reader took, not only ones it left whole
    expect(taken).toBeGreaterThan(50);
  });

  test('a read answer is parsed from its bytes, and a member that takes the blob’s place leaves it whole', () => {
    const blob = 'QUJD'.repeat(100);
    const answer = (contents: string) => Buffer.from(`{"jsonrpc":"2.0","id":7,"result":{"contents":[${contents}]}}\n`);
    const plain = answer(`{"uri":"file:///a.png","mimeType":"image/png","blob":"${blob}"}`);
    const holed = holedLine(plain, 64);
    expect(holed?.text.length).toBeLessThan(120);
    expect(readCut(plain, 64)).toEqual({ value: JSON.parse(plain.toString()) });
    // JSON.parse keeps the last `blob`: the sentinel is gone, so the line is read whole
    const twice = answer(`{"uri":"file:///a.png","blob":"${blob}","blob":"QUJD"}`);
    expect(holedLine(twice, 64)).not.toBeNull();
    expect(readCut(twice, 64)).toBeNull();
    // a blob that is not base64 throughout is never cut
    for (const bad of ['\u0001', ' ', '\\n', 'é', '=A'])
      expect(holedLine(answer(`{"blob":"${blob}${bad}QUJ"}`), 64)).toBeNull();
    // a text that spells U+0000 outside the blob is read whole (the sentinel could be forged)
    expect(holedLine(answer(`{"blob":"${blob}","text":"\\u0000"}`), 64)).toBeNull();
  });

  test('the transport parses a long read answer from its bytes, and its text is made only when read', () => {
    const blob = 'QUJD'.repeat(holedLineBytes / 4);
    const bytes = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"f","blob":"${blob}"}]}}\n`);
    const lines: Line[] = [];
    const splitter = lineSplitter(bytes.length, { onLine: (line) => lines.push(line), onOversize: () => {} });
    for (let at = 0; at < bytes.length; at += 65536) splitter.push(bytes.subarray(at, at + 65536));
    const [line] = lines;
    if (line === undefined) throw new Error('no line');
    const value = parseLine(line) as { result: { contents: { blob: string }[] } };
    expect(line.cut?.length).toBeLessThan(100);
    expect(value.result.contents[0]?.blob).toBe(blob);
    expect(line.text).toBe(bytes.toString('latin1'));
  });

  // found by review (12-07): the scan searched a string's closing quote again after each of its escapes, so a line of
  // k escapes was read k times over (a 1 MiB line of `\n` held the proxy 4 s, one near the cap ten minutes); the
  // bytes its searches pass over are counted, not timed
  test.each([
    [
      'a text of escapes',
      (run: string) => `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${run}"}]}}`,
    ],
    ['a member name of escapes', (run: string) => `{"jsonrpc":"2.0","id":1,"result":{"${run}":1}}`],
    ['escapes between short strings', (run: string) => `{"a":["${run.replaceAll('\\n', '\\n","')}"]}`],
  ])('reads each byte of %s a bounded number of times', (_, shape) => {
    const line = Buffer.from(`${shape('\\n'.repeat(20_000))}\n`);
    const indexOf: (this: Buffer, ...args: Parameters<Buffer['indexOf']>) => number = Buffer.prototype.indexOf;
    let scanned = 0;
    Buffer.prototype.indexOf = function (this: Buffer, ...args: Parameters<Buffer['indexOf']>): number {
      const at = indexOf.apply(this, args);
      const from = args[1];
      const start = typeof from === 'number' ? from : 0;
      scanned += (at === -1 ? this.length : at + 1) - start;
      return at;
    };
    try {
      holedLine(line, 64);
    } finally {
      Buffer.prototype.indexOf = indexOf;
    }
    expect(scanned).toBeGreaterThan(0);
    expect(scanned).toBeLessThan(4 * line.length);
  });
});
