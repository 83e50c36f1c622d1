import { describe, expect, test } from 'vitest';
import { peekId, peekTailId } from '../../src/flow/peek-id.ts';

describe('peekId reads the top-level id from the start of a line that may be cut or broken', () => {
  test.each([
    ['{"jsonrpc":"2.0","id":7,"result":{"contents":[', 7],
    ['{"jsonrpc":"2.0","id":"r-1","result":', 'r-1'],
    [' { "id" : 12 , "method": "x"}', 12],
    ['{"result":{"id":99,"nested":[{"id":1}]},"id":3', null],
    ['{"result":{"id":99,"nested":[{"id":1}]},"id":3,', 3],
    ['{"params":{"text":"\\"id\\":5"},"id":"a\\"b","x":1', 'a"b'],
    ['{"jsonrpc":"2.0","id":', null],
    ['{"jsonrpc":"2.0","id":null,"result":{}}', null],
    ['{"jsonrpc":"2.0","id":{"nested":true},"result":{}}', null],
    ['{"jsonrpc":"2.0","id":1e400,"x":0}', null],
    ['[{"id":1}]', null],
    ['this is not json', null],
    ['', null],
    ['{"a":"unterminated', null],
  ])('%s → %s', (text, want) => {
    expect(peekId(text)).toEqual(want);
  });
});

describe('peekTailId', () => {
  test.each([
    ['an SDK answer, id last', '…"text":"aaaa"}]},"jsonrpc":"2.0","id":7}', 7],
    ['a string id and spaces', '…]} , "id" : "r-1" }\r\n', 'r-1'],
    ['an escaped quote inside the id', String.raw`…,"id":"a\"b"}`, 'a"b'],
    ['id not last', '…,"id":7,"jsonrpc":"2.0"}', null],
    ['an id inside a nested object', '…,"x":{"id":7}}', null],
    ['an id written inside a string', String.raw`…"t":"x,\"id\":7}"}`, null],
    ['cut before the end', '…"id":7', null],
    ['an object id', '…,"id":{"a":1}}', null],
  ])('%s', (_name, text, want) => {
    expect(peekTailId(text)).toBe(want);
  });
});
