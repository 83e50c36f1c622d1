import { describe, expect, test } from 'vitest';
import { inspectItem } from '../../src/read/read-item.ts';

describe('inspectItem', () => {
  test.each([
    ['text', { uri: 'guide://a', text: 'héllo' }, 'text', 6],
    ['blob', { uri: 'guide://a', blob: 'aGVsbG8=' }, 'blob', 5],
    ['empty blob', { uri: 'guide://a', blob: '' }, 'blob', 0],
  ])('accepts a %s item and sizes it before decoding', (_, value, carrier, bytes) => {
    const item = inspectItem(value, 0);
    expect(item.ok).toBe(true);
    if (item.ok) {
      expect(item.carrier).toBe(carrier);
      expect(item.bytes).toBe(bytes);
    }
  });

  test('normalizes the declared mime type', () => {
    expect(inspectItem({ uri: 'guide://a', text: '', mimeType: 'Text/Plain; charset=UTF-8' }, 0).declaredMime).toBe(
      'text/plain',
    );
  });

  test.each([
    ['not an object', 'text', /not an object/],
    ['an array', [], /not an object/],
    ['null', null, /not an object/],
    ['both text and blob', { uri: 'guide://a', text: 'a', blob: 'YQ==' }, /both `text` and `blob`/],
    ['neither text nor blob', { uri: 'guide://a' }, /neither `text` nor `blob`/],
    ['no uri', { text: 'a' }, /no string `uri`/],
    ['a numeric text', { uri: 'guide://a', text: 5 }, /`text` that is not a string/],
    ['a numeric mimeType', { uri: 'guide://a', text: 'a', mimeType: 5 }, /`mimeType` that is not a string/],
    ['a blob of impossible length', { uri: 'guide://a', blob: 'YQ=' }, /not valid base64/],
  ])('rejects %s', (_, value, message) => {
    const item = inspectItem(value, 3);
    expect(item.ok).toBe(false);
    if (!item.ok) expect(item.message).toMatch(message);
  });
});
