import { describe, expect, test } from 'vitest';
import { uriWithinLink } from '../../src/read/uri-scope.ts';

describe('uriWithinLink', () => {
  test.each([
    ['the same uri', 'guide://manuals/packing', 'guide://manuals/packing', true],
    ['a sub-resource', 'guide://manuals/packing', 'guide://manuals/packing/page-2', true],
    ['a sub-resource of a directory link', 'file:///docs/', 'file:///docs/a.txt', true],
    ['https below the path', 'https://example.com/a', 'https://example.com/a/b?x=1', true],
    ['default port spelled out', 'https://example.com/a', 'https://example.com:443/a', true],
    ['a sibling sharing a prefix', 'guide://manuals/packing', 'guide://manuals/packing-list', false],
    ['a parent', 'guide://manuals/packing', 'guide://manuals', false],
    ['dot segments leaving the link', 'guide://manuals/packing', 'guide://manuals/packing/../secret', false],
    [
      'encoded dot segments leaving the link',
      'https://example.com/a/b',
      'https://example.com/a/b/%2e%2e/%2e%2e/etc',
      false,
    ],
    ['an encoded slash is not a boundary', 'guide://manuals/packing', 'guide://manuals/packing%2F..%2Fsecret', false],
    ['another host', 'https://example.com/a', 'https://example.net/a', false],
    ['another scheme', 'https://example.com/a', 'http://example.com/a', false],
    ['another port', 'https://example.com/a', 'https://example.com:8443/a', false],
    ['userinfo added', 'https://example.com/a', 'https://user@example.com/a', false],
    ['a link with a query names one resource', 'https://example.com/a?id=1', 'https://example.com/a/b', false],
    ['opaque uris only match exactly', 'urn:isbn:0451450523', 'urn:isbn:0451450523:x', false],
    ['opaque uri, same', 'urn:isbn:0451450523', 'urn:isbn:0451450523', true],
    ['unparseable item', 'guide://manuals/packing', 'not a uri', false],
  ])('%s', (_, link, item, expected) => {
    expect(uriWithinLink(link, item)).toBe(expected);
  });
});
