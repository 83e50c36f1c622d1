import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { matchBrackets, spanAt, spliceEdits, spliceEditsInto } from '../../src/proxy/json-spans.ts';
import { namesAndBrackets } from '../../src/flow/member-names.ts';
import { editMessage, type JsonPath, type MessageEdit } from '../../src/sdk/message-edits.ts';

// writes a value the way a peer might: compact or spaced, members in their order
function write(value: unknown, space: string): string {
  if (Array.isArray(value)) return `[${space}${value.map((v) => write(v, space)).join(`,${space}`)}${space}]`;
  if (value !== null && typeof value === 'object')
    return `{${space}${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}${space}:${space}${write(v, space)}`)
      .join(`,${space}`)}${space}}`;
  return JSON.stringify(value);
}

const slice = (text: string, path: (string | number)[]) => {
  const s = spanAt(text, path);
  return s === null ? null : text.slice(s.start, s.end);
};

describe('spanAt and spliceEdits', () => {
  test('finds values past strings holding quotes, backslashes and brackets', () => {
    const text = '{"id":1,"result":{"x":"a \\" ] } [ {\\\\","content":[ {"a":"}"} ,{},3,"s",[1,{"b":[]}] ]}}\n';
    expect([0, 1, 2, 3, 4].map((i) => slice(text, ['result', 'content', i]))).toEqual([
      '{"a":"}"}',
      '{}',
      '3',
      '"s"',
      '[1,{"b":[]}]',
    ]);
    const edits: MessageEdit[] = [
      { op: 'set', path: ['result', 'content', 0], key: 'm', value: 1 },
      { op: 'set', path: ['result', 'content', 1], key: 'm', value: 2 },
      { op: 'replace', path: ['result', 'content', 2], value: { r: true } },
    ];
    expect(JSON.parse(spliceEdits(text, edits) ?? 'null')).toEqual({
      id: 1,
      result: { x: 'a " ] } [ {\\', content: [{ a: '}', m: 1 }, { m: 2 }, { r: true }, 's', [1, { b: [] }]] },
    });
  });

  test('a member named twice resolves to the last, as JSON.parse does; escaped names are read decoded', () => {
    const text = '{"result":{"content":[1]},"result":{"content":[{"k":2}]}}';
    expect(slice(text, ['result', 'content', 0])).toBe('{"k":2}');
    expect(slice('{"\\u0072esult":{"content":[7]}}', ['result', 'content', 0])).toBe('7');
    expect(slice('{"result":{"con\\"tent":[],"content":[8]}}', ['result', 'content', 0])).toBe('8');
  });

  test('a missing member, a wrong container or overlapping edits give null, never a wrong text', () => {
    expect(spanAt('{"result":{}}', ['result', 'content'])).toBeNull();
    expect(
      spliceEdits('{"result":{"content":{}}}', [{ op: 'keep', path: ['result', 'content'], indices: [] }]),
    ).toBeNull();
    expect(spliceEdits('[]', [{ op: 'set', path: [], key: 'a', value: 1 }])).toBeNull();
    expect(spliceEdits('{"c":[1]}', [{ op: 'set', path: ['c', 0], key: 'm', value: 1 }])).toBeNull();
    expect(
      spliceEdits('{"c":[{}]}', [
        { op: 'replace', path: ['c'], value: 1 },
        { op: 'set', path: ['c', 0], key: 'm', value: 1 },
      ]),
    ).toBeNull();
  });

  test('every byte outside the edited values stays as written: numbers, spacing, order, duplicates', () => {
    const text =
      '{ "id" : 12345678901234567890, "jsonrpc":"2.0", "result": {"n":1e400,"z":-0,"z":-0.0,"big":12345678901234567890,' +
      '\t"contents" : [ {"uri":"a","text":"x"} , {"uri":"b","blob":"AA=="} ,{"uri":"c","text":"y"}], "k":[1E2] } }\r\n';
    const out = spliceEdits(text, [
      { op: 'keep', path: ['result', 'contents'], indices: [0, 2] },
      { op: 'set', path: ['result'], key: '_meta', value: { d: 1 } },
    ]);
    expect(out).toBe(
      '{ "id" : 12345678901234567890, "jsonrpc":"2.0", "result": {"n":1e400,"z":-0,"z":-0.0,"big":12345678901234567890,' +
        '\t"contents" : [{"uri":"a","text":"x"},{"uri":"c","text":"y"}], "k":[1E2] ,"_meta":{"d":1}} }\r\n',
    );
  });

  test('an edited copy keeps a member named `__proto__` as its own member, never as its prototype', () => {
    const text = '{"id":1,"result":{"content":[{"type":"resource_link","__proto__":{"polluted":true},"uri":"u"}]}}';
    const message = JSON.parse(text) as Record<string, unknown>;
    const edit: MessageEdit = { op: 'set', path: ['result', 'content', 0], key: '_meta', value: { m: 1 } };
    const edited = editMessage(message, [edit]) as { result: { content: Record<string, unknown>[] } };
    const item = edited.result.content[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    expect(Object.keys(item)).toEqual(['type', '__proto__', 'uri', '_meta']);
    expect((item as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(item, '__proto__')?.value).toEqual({ polluted: true });
    expect(spliceEdits(text, [edit])).toBe(text.replace('"uri":"u"}', '"uri":"u","_meta":{"m":1}}'));
  });

  test('given the parsed message, a member named with escapes is replaced, and one the object lacks is added last', () => {
    const text = '{"result":{"content":[{"uri":"a","\\u005fmeta":{"k":1}},{"uri":"b","note":"\\"_meta\\""}]}}\n';
    const parsed = JSON.parse(text) as unknown;
    const edits: MessageEdit[] = [0, 1].map((i) => ({
      op: 'set',
      path: ['result', 'content', i],
      key: '_meta',
      value: { d: i },
    }));
    const out = spliceEdits(text, edits, parsed);
    expect(out).toBe(
      '{"result":{"content":[{"uri":"a","\\u005fmeta":{"d":0}},{"uri":"b","note":"\\"_meta\\"","_meta":{"d":1}}]}}\n',
    );
    expect(out).toBe(spliceEdits(text, edits));
  });

  test('many siblings: one with a `_meta` of its own, one with the name in a string, one with a backslash, in any order', () => {
    const items = [
      '{"uri":"a"}',
      '{"uri":"b","_meta":{"k":1}}',
      '{"uri":"c","note":"see \\"_meta\\""}',
      '{"uri":"d\\u0041"}',
      '{"uri":"e","\\u005fmeta":2}',
      '{"uri":"f"}',
    ];
    const text = `{"id":1,"result":{"content":[${items.join(',')}]}}\n`;
    const edits: MessageEdit[] = items.map((_, i) => ({
      op: 'set' as const,
      path: ['result', 'content', i],
      key: '_meta',
      value: { d: i },
    }));
    for (const order of [edits, [...edits].reverse()]) {
      const out = spliceEdits(text, order) ?? 'null';
      expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(editMessage(JSON.parse(text), order))));
      expect(out).toContain('{"uri":"a","_meta":{"d":0}}');
      expect(out).toContain('{"uri":"b","_meta":{"d":1}}');
      expect(out).toContain('{"uri":"e","\\u005fmeta":{"d":4}}');
    }
  });

  test('on the bytes of an ASCII line: each edit written as UTF-8 between the bytes as they came', () => {
    const text = '{"id":1,"result":{"content":[{"uri":"a"},{"uri":"b"}]}}\n';
    const edits: MessageEdit[] = [
      { op: 'set', path: ['result', 'content', 0], key: '_meta', value: { note: 'é ✓' } },
      { op: 'replace', path: ['result', 'content', 1], value: { type: 'text', text: '漢字' } },
    ];
    const out = spliceEditsInto(text, [Buffer.from(text)], text.length, edits);
    expect(out?.toString('utf8')).toBe(spliceEdits(text, edits));
    expect(out?.toString('utf8')).toBe(
      '{"id":1,"result":{"content":[{"uri":"a","_meta":{"note":"é ✓"}},{"type":"text","text":"漢字"}]}}\n',
    );
    // a path that leads nowhere: null, never bytes written another way
    expect(
      spliceEditsInto(text, [Buffer.from(text)], text.length, [{ op: 'replace', path: ['x'], value: 1 }]),
    ).toBeNull();
    const wide = text.replace('"a"', '"ä"');
    expect(spliceEditsInto(wide, [Buffer.from(wide)], Buffer.byteLength(wide), edits)).toBeNull();
  });

  test('the member-name scan finds every container where the splice pass does, or none when a name is ambiguous', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.constantFrom('', ' ', '\n\t', '\r\n'), (value, space) => {
        const text = `${write({ jsonrpc: '2.0', id: 1, result: { structuredContent: value } }, space)}\n`;
        const { ambiguity, brackets } = namesAndBrackets(text);
        expect(ambiguity).toBeNull();
        expect(brackets).toEqual(matchBrackets(text));
        // each container's end is the offset just past its closing bracket
        brackets?.opens.forEach((open, k) => {
          const end = brackets.ends[k] as number;
          expect(JSON.parse(text.slice(open, end))).toBeDefined();
        });
      }),
      { numRuns: 300 },
    );
    const twice = '{"id":1,"result":{"content":[{"uri":"a","uri":"b"}]}}\n';
    expect(namesAndBrackets(twice)).toEqual({ ambiguity: { kind: 'duplicate', name: 'uri' }, brackets: undefined });
    const deep = `{"result":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(namesAndBrackets(deep).brackets).toEqual(matchBrackets(deep));
  });

  test('nesting 20 000 deep is walked without recursion', () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const text = `{"result":{"deep":${deep},"content":[{"type":"resource_link","uri":"x"}]}}\n`;
    const out = spliceEdits(text, [{ op: 'set', path: ['result', 'content', 0], key: '_meta', value: { d: 1 } }]);
    expect(out).toBe(`{"result":{"deep":${deep},"content":[{"type":"resource_link","uri":"x","_meta":{"d":1}}]}}\n`);
  });

  test('property: the spliced text parses to the value the same edits make of the parsed message', () => {
    const item = fc.oneof(
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 6 }),
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        fc.constantFrom('', ' ', '\n\t'),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 6, maxLength: 6 }),
        (content, extra, space, pick) => {
          const message = { ...extra, jsonrpc: '2.0', id: 7, result: { ...extra, content } };
          const text = `${write(message, space)}\n`;
          const edits: MessageEdit[] = [];
          content.forEach((c, i) => {
            const isObject = c !== null && typeof c === 'object' && !Array.isArray(c);
            if (pick[i] === 1 && isObject)
              edits.push({ op: 'set', path: ['result', 'content', i], key: '_meta', value: { d: i } });
            if (pick[i] === 2)
              edits.push({ op: 'replace', path: ['result', 'content', i], value: { type: 'text', text: 'w' } });
          });
          if (pick[5] === 3 && edits.length === 0)
            edits.push({
              op: 'keep',
              path: ['result', 'content'],
              indices: content.map((_, i) => i).filter((i) => i % 2 === 0),
            });
          const parsed = JSON.parse(text) as Record<string, unknown>;
          const out = spliceEdits(text, edits);
          // compared as JSON (a -0 reads back as 0 either way)
          expect(JSON.parse(out ?? 'null')).toEqual(JSON.parse(JSON.stringify(editMessage(parsed, edits))));
          // given the parsed message, a member it lacks is added without searching the object's text: the same text
          expect(spliceEdits(text, edits, parsed)).toBe(out);
          // made on the bytes (split in two parts, as a line that came in two chunks), the same bytes as the text's,
          // or null when the line is not ASCII (an offset in the text is then not one in the bytes)
          const bytes = Buffer.from(text);
          const cut = Math.floor(bytes.length / 2);
          const into = spliceEditsInto(
            text,
            [bytes.subarray(0, cut), bytes.subarray(cut)],
            bytes.length,
            edits,
            parsed,
          );
          if (bytes.length !== text.length) expect(into).toBeNull();
          else expect(into?.toString('utf8') ?? null).toBe(out);
          // with the containers the member-name scan found (the proxy's server side), the same text and bytes
          const { ambiguity, brackets } = namesAndBrackets(text);
          if (ambiguity !== null) return;
          expect(brackets).toEqual(matchBrackets(text));
          expect(spliceEdits(text, edits, parsed, brackets)).toBe(out);
          if (bytes.length === text.length)
            expect(spliceEditsInto(text, [bytes], bytes.length, edits, parsed, brackets)?.toString('utf8')).toBe(out);
        },
      ),
      { numRuns: 300 },
    );
  });
  test('property: `setAt` of an element is the `set` of its full path: the same text, bytes and edited value', () => {
    const item = fc.oneof(
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const content: JsonPath = ['result', 'content'];
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 6 }),
        fc.constantFrom('', ' ', '\n\t'),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 6, maxLength: 6 }),
        (items, space, pick) => {
          const text = `${write({ jsonrpc: '2.0', id: 7, result: { content: items } }, space)}\n`;
          // the same edits, each element's `set` written with its full path or as a `setAt` (some of each)
          const full: MessageEdit[] = [];
          const mixed: MessageEdit[] = [];
          items.forEach((c, i) => {
            const isObject = c !== null && typeof c === 'object' && !Array.isArray(c);
            if (pick[i] === 3) {
              full.push({ op: 'replace', path: [...content, i], value: { type: 'text', text: 'w' } });
              mixed.push({ op: 'replace', path: [...content, i], value: { type: 'text', text: 'w' } });
            } else if (pick[i] !== 0 && isObject) {
              full.push({ op: 'set', path: [...content, i], key: '_meta', value: { d: i } });
              mixed.push(
                pick[i] === 1
                  ? { op: 'setAt', path: content, index: i, key: '_meta', value: { d: i } }
                  : { op: 'set', path: [...content, i], key: '_meta', value: { d: i } },
              );
            }
          });
          const parsed = JSON.parse(text) as Record<string, unknown>;
          const out = spliceEdits(text, full, parsed);
          expect(spliceEdits(text, mixed, parsed)).toBe(out);
          expect(spliceEdits(text, mixed)).toBe(spliceEdits(text, full));
          expect(spliceEdits(text, [...mixed].reverse(), parsed)).toBe(out);
          const bytes = Buffer.from(text);
          expect(spliceEditsInto(text, [bytes], bytes.length, mixed, parsed)?.toString('utf8') ?? null).toBe(
            spliceEditsInto(text, [bytes], bytes.length, full, parsed)?.toString('utf8') ?? null,
          );
          // (each on a parse of its own: a message no edit copied carries what was made of it)
          expect(JSON.parse(JSON.stringify(editMessage(JSON.parse(text) as Record<string, unknown>, mixed)))).toEqual(
            JSON.parse(JSON.stringify(editMessage(JSON.parse(text) as Record<string, unknown>, full))),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  test('`setAt` of what is not an object in an array leads nowhere: null, and a TypeError from `editMessage`', () => {
    const text = '{"result":{"content":[1,{"a":1}],"o":{"0":{}}}}\n';
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const edits = (path: JsonPath, index: number): MessageEdit[] => [{ op: 'setAt', path, index, key: 'k', value: 1 }];
    for (const [path, index] of [
      [['result', 'content'], 0],
      [['result', 'content'], 2],
      [['result', 'o'], 0],
    ] as const) {
      expect(spliceEdits(text, edits(path, index), parsed)).toBeNull();
      expect(() => editMessage(parsed, edits(path, index))).toThrow(TypeError);
    }
    expect(spliceEdits(text, edits(['result', 'content'], 1), parsed)).toBe(
      '{"result":{"content":[1,{"a":1,"k":1}],"o":{"0":{}}}}\n',
    );
  });
});
