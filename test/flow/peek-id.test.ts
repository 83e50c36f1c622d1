import { describe, expect, test } from 'vitest';
import { peekId } from '../../src/flow/peek-id.ts';

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
