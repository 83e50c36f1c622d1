import { describe, expect, test } from 'vitest';
import { ambiguousName } from '../../src/flow/member-names.ts';

// The member-name scan compares a read name's spelling only where another case can hide: a name with a letter that
// folds, an escaped name, or a read name spelled with capitals. The boundary of that skip, each side of it.

const item = (members: string) =>
  `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource_link","uri":"demo://a","name":"n"${members}}]}}`;

describe('the member-name scan where it skips the spelling comparison', () => {
  test('names spelled as the gate reads them, lower case or not, are not ambiguous', () => {
    expect(ambiguousName(item(',"mimeType":"text/plain","size":3'))).toBeNull();
    expect(ambiguousName('{"jsonrpc":"2.0","id":1,"result":{"isError":false,"content":[]}}')).toBeNull();
  });

  test('a lower-case spelling of a read name with capitals is refused', () => {
    expect(ambiguousName(item(',"mimetype":"text/html"'))).toEqual({
      kind: 'case',
      name: 'mimetype',
      reads: 'mimeType',
    });
    expect(ambiguousName('{"jsonrpc":"2.0","id":1,"result":{"iserror":true,"content":[]}}')).toEqual({
      kind: 'case',
      name: 'iserror',
      reads: 'isError',
    });
  });

  test('a capital or a folding letter in a lower-case read name is refused', () => {
    expect(ambiguousName(item(',"URI":"demo://b"'))).toEqual({ kind: 'case', name: 'URI', reads: 'uri' });
    expect(ambiguousName(item(',"\u017fize":4'))).toEqual({ kind: 'case', name: '\u017fize', reads: 'size' });
  });

  test('an escaped name is read as its decoded spelling', () => {
    expect(ambiguousName(item(',"\\u0055ri":"demo://b"'))).toEqual({ kind: 'case', name: 'Uri', reads: 'uri' });
    expect(ambiguousName(item(',"\\u0075ri":"demo://b"'))).toEqual({ kind: 'duplicate', name: 'uri' });
  });
});
