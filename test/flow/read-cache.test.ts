import { describe, expect, test } from 'vitest';
import { ReadCache } from '../../src/flow/read-cache.ts';

const contents = [{ uri: 'guide://a', mimeType: 'text/plain', text: 'hello' }];

describe('ReadCache.store', () => {
  test.each([
    {
      name: 'positive ttl',
      result: { resultType: 'complete', contents, ttlMs: 1000, cacheScope: 'public' },
      stored: true,
    },
    { name: 'absent resultType (2025-11-25) with ttl', result: { contents, ttlMs: 1000 }, stored: true },
    { name: 'absent ttl', result: { resultType: 'complete', contents, cacheScope: 'public' }, stored: false },
    { name: 'zero ttl', result: { resultType: 'complete', contents, ttlMs: 0 }, stored: false },
    { name: 'negative ttl', result: { resultType: 'complete', contents, ttlMs: -5 }, stored: false },
    { name: 'ttl as text', result: { resultType: 'complete', contents, ttlMs: '1000' }, stored: false },
    { name: 'input_required', result: { resultType: 'input_required', requestState: 'x', ttlMs: 1000 }, stored: false },
    { name: 'unknown result type', result: { resultType: 'task', contents, ttlMs: 1000 }, stored: false },
    { name: 'no contents', result: { resultType: 'complete', ttlMs: 1000 }, stored: false },
  ])('$name → stored $stored', ({ result, stored }) => {
    const cache = new ReadCache();
    expect(cache.store({ server: 's', uri: 'guide://a' }, result)).toBe(stored);
    expect(cache.lookup({ server: 's', uri: 'guide://a' }) !== undefined).toBe(stored);
  });
});

describe('ReadCache.lookup', () => {
  test.each([
    { name: 'same server and uri', key: { server: 's', uri: 'guide://a' }, hit: true },
    { name: 'other server', key: { server: 't', uri: 'guide://a' }, hit: false },
    { name: 'other uri', key: { server: 's', uri: 'guide://b' }, hit: false },
  ])('public entry, $name → hit $hit', ({ key, hit }) => {
    const cache = new ReadCache();
    cache.store(
      { server: 's', uri: 'guide://a', authContext: 'alice' },
      { contents, ttlMs: 1000, cacheScope: 'public' },
    );
    expect(cache.lookup({ ...key, authContext: 'bob' }) !== undefined).toBe(hit);
  });

  test.each([
    { name: 'same context', scope: 'private', context: 'alice', hit: true },
    { name: 'other context', scope: 'private', context: 'bob', hit: false },
    { name: 'no scope given counts as private', scope: undefined, context: 'bob', hit: false },
  ])('private entries are reused only in their authorization context: $name', ({ scope, context, hit }) => {
    const cache = new ReadCache();
    cache.store(
      { server: 's', uri: 'guide://a', authContext: 'alice' },
      { contents, ttlMs: 1000, ...(scope === undefined ? {} : { cacheScope: scope }) },
    );
    expect(cache.lookup({ server: 's', uri: 'guide://a', authContext: context }) !== undefined).toBe(hit);
  });

  test('an entry expires after ttlMs and reports its age', () => {
    let now = 1_000_000;
    const cache = new ReadCache({ now: () => now });
    cache.store({ server: 's', uri: 'guide://a' }, { contents, ttlMs: 500, cacheScope: 'public' });
    now += 499;
    expect(cache.lookup({ server: 's', uri: 'guide://a' })).toMatchObject({ ageMs: 499, ttlMs: 500 });
    now += 1;
    expect(cache.lookup({ server: 's', uri: 'guide://a' })).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('a hit is a copy: changing it does not change the cache', () => {
    const cache = new ReadCache();
    cache.store({ server: 's', uri: 'guide://a' }, { contents, ttlMs: 500, cacheScope: 'public' });
    const hit = cache.lookup({ server: 's', uri: 'guide://a' });
    (hit?.result['contents'] as unknown[]).length = 0;
    expect(cache.lookup({ server: 's', uri: 'guide://a' })?.result['contents']).toHaveLength(1);
  });
});

describe('ReadCache bounds', () => {
  test('holds at most maxEntries, dropping the least recently used', () => {
    const cache = new ReadCache({ maxEntries: 2 });
    const put = (uri: string) => cache.store({ server: 's', uri }, { contents, ttlMs: 1000, cacheScope: 'public' });
    put('guide://1');
    put('guide://2');
    cache.lookup({ server: 's', uri: 'guide://1' });
    put('guide://3');
    expect(cache.size).toBe(2);
    expect(cache.lookup({ server: 's', uri: 'guide://2' })).toBeUndefined();
    expect(cache.lookup({ server: 's', uri: 'guide://1' })).toBeDefined();
  });

  test('a result larger than maxChars is not stored', () => {
    const cache = new ReadCache({ maxChars: 100 });
    expect(
      cache.store(
        { server: 's', uri: 'guide://a' },
        { contents: [{ uri: 'guide://a', text: 'x'.repeat(200) }], ttlMs: 1000 },
      ),
    ).toBe(false);
  });

  test.each([0, -1, 1.5, Number.NaN])('rejects the limit %s', (limit) => {
    expect(() => new ReadCache({ maxEntries: limit })).toThrow(/whole number/);
  });
});
