import { describe, expect, test } from 'vitest';
import { checkResourceLink, uriOf } from '../../src/link/resource-link.ts';

const good = { type: 'resource_link', uri: 'https://example.com/a', name: 'a' };

describe('checkResourceLink', () => {
  test('a well-formed link is the value itself, unknown members kept', () => {
    const link = { ...good, title: 'A', mimeType: 'text/plain', size: 3, annotations: { priority: 1 }, extra: true };
    const checked = checkResourceLink(link);
    expect(checked).toEqual({ ok: true, link });
    expect(checked.ok && checked.link).toBe(link);
  });

  test.each([
    ['not an object', 'x', '(item)'],
    ['an array', [good], '(item)'],
    ['a class instance', new (class {})(), '(item)'],
    ['another type', { ...good, type: 'resource' }, 'type'],
    ['a numeric uri', { ...good, uri: 1 }, 'uri'],
    ['no name', { type: 'resource_link', uri: 'https://example.com/' }, 'name'],
    ['a numeric title', { ...good, title: 1 }, 'title'],
    ['a string mimeType of the wrong kind', { ...good, mimeType: null }, 'mimeType'],
    ['an infinite size', { ...good, size: Number.POSITIVE_INFINITY }, 'size'],
    ['a string size', { ...good, size: '3' }, 'size'],
    ['a __proto__ member', JSON.parse('{"type":"resource_link","uri":"u","name":"n","__proto__":{}}'), '__proto__'],
  ])('%s is malformed at `%s`', (_what, value, field) => {
    const checked = checkResourceLink(value);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.field).toBe(field);
  });
});

describe('uriOf', () => {
  test.each([
    [good, 'https://example.com/a'],
    [{ uri: 5 }, ''],
    [null, ''],
    ['https://example.com/', ''],
  ])('%j → %j', (item, uri) => {
    expect(uriOf(item)).toBe(uri);
  });
});
