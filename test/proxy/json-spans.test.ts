import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { applyEdits, arrayAt, type ElementEdit } from '../../src/proxy/json-spans.ts';

// writes a value the way a peer might: compact or spaced, members in their order
function write(value: unknown, space: string): string {
  if (Array.isArray(value)) return `[${space}${value.map((v) => write(v, space)).join(`,${space}`)}${space}]`;
  if (value !== null && typeof value === 'object')
    return `{${space}${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}${space}:${space}${write(v, space)}`)
      .join(`,${space}`)}${space}}`;
  return JSON.stringify(value);
}

describe('arrayAt and applyEdits', () => {
  test('finds the elements of result.content past strings holding quotes, backslashes and brackets', () => {
    const text = '{"id":1,"result":{"x":"a \\" ] } [ {\\\\","content":[ {"a":"}"} ,{},3,"s",[1,{"b":[]}] ]}}\n';
    const spans = arrayAt(text, ['result', 'content']);
    expect(spans?.map((s) => text.slice(s.start, s.end))).toEqual(['{"a":"}"}', '{}', '3', '"s"', '[1,{"b":[]}]']);
    const edits = new Map<number, ElementEdit>([
      [0, { addMember: '"m":1' }],
      [1, { addMember: '"m":2' }],
      [2, { replace: '{"r":true}' }],
    ]);
    expect(JSON.parse(applyEdits(text, spans ?? [], edits) ?? 'null')).toEqual({
      id: 1,
      result: { x: 'a " ] } [ {\\', content: [{ a: '}', m: 1 }, { m: 2 }, { r: true }, 's', [1, { b: [] }]] },
    });
  });

  test('a member named twice resolves to the last, as JSON.parse does', () => {
    const text = '{"result":{"content":[1]},"result":{"content":[{"k":2}]}}';
    const spans = arrayAt(text, ['result', 'content']);
    expect(spans?.map((s) => text.slice(s.start, s.end))).toEqual(['{"k":2}']);
  });

  test('an escaped key on the way, a missing member or a non-array gives null (the caller rebuilds)', () => {
    expect(arrayAt('{"\\u0072esult":{"content":[]}}', ['result', 'content'])).toBeNull();
    expect(arrayAt('{"result":{"con\\"tent":[],"content":[]}}', ['result', 'content'])).toBeNull();
    expect(arrayAt('{"result":{}}', ['result', 'content'])).toBeNull();
    expect(arrayAt('{"result":{"content":{}}}', ['result', 'content'])).toBeNull();
    expect(arrayAt('[]', ['result'])).toBeNull();
    expect(applyEdits('{"c":[1]}', [{ start: 6, end: 7 }], new Map([[0, { addMember: '"m":1' }]]))).toBeNull();
  });

  test('property: the spliced text parses to the value rebuilt by hand', () => {
    const item = fc.oneof(
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 6 }),
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        fc.constantFrom('', ' ', '\n\t'),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        (content, extra, space, pick) => {
          const message = { ...extra, jsonrpc: '2.0', id: 7, result: { ...extra, content } };
          const text = `${write(message, space)}\n`;
          const spans = arrayAt(text, ['result', 'content']);
          // a key written with an escape (fast-check's strings may need one) is a null, never a wrong answer
          if (spans === null) return /\\/.test(text);
          expect(spans).toHaveLength(content.length);
          const edits = new Map<number, ElementEdit>();
          const expected = content.map((c, i) => {
            const isObject = c !== null && typeof c === 'object' && !Array.isArray(c);
            if (!pick[i]) return c;
            if (isObject && !Object.hasOwn(c, '_meta')) {
              edits.set(i, { addMember: '"_meta":{"d":1}' });
              return { ...c, _meta: { d: 1 } };
            }
            edits.set(i, { replace: '{"type":"text","text":"w"}' });
            return { type: 'text', text: 'w' };
          });
          const out = applyEdits(text, spans, edits);
          // compared as JSON (the text never holds a -0, so neither may the expectation)
          const want: unknown = JSON.parse(
            JSON.stringify({ ...message, result: { ...message.result, content: expected } }),
          );
          expect(JSON.parse(out ?? 'null')).toEqual(want);
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });
});
