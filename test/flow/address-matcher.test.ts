// The address automaton (`src/flow/address-matcher.ts`) against a search per pattern with the same host boundaries,
// and the search over it (`src/flow/address-search.ts`): forms, levels, the bound.
import { describe, expect, test } from 'vitest';
import { AddressMatcher, type AddressPattern, continuesHost } from '../../src/flow/address-matcher.ts';
import { AddressSearch, addressForms } from '../../src/flow/address-search.ts';

// the reference: each pattern at each place, with the boundaries checked by hand
function naive(patterns: readonly AddressPattern[], text: string): boolean {
  return patterns.some(({ text: p, hostEnd }) => {
    for (let at = text.indexOf(p); at !== -1; at = text.indexOf(p, at + 1)) {
      const startsHost = at === 0 || !continuesHost(text.charCodeAt(at - 1));
      const end = at + p.length;
      const endsHost = !hostEnd || end === text.length || !continuesHost(text.charCodeAt(end));
      if (startsHost && endsHost) return true;
    }
    return false;
  });
}

// a small deterministic generator (mulberry32)
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('AddressMatcher', () => {
  test('overlapping patterns: every suffix state is checked, at boundaries', () => {
    const patterns = ['he', 'she', 'his', 'hers', 'ab/ab/c', 'ab/c'].map((text, id) => ({ text, id, hostEnd: false }));
    const matcher = new AddressMatcher(patterns);
    expect(matcher.firstIn('u/shers')).toBe(1);
    expect(matcher.firstIn('ushers')).toBe(-1);
    expect(matcher.firstIn('xsh')).toBe(-1);
    expect(matcher.firstIn('ab/ab/ab/c')).not.toBe(-1);
    expect(matcher.firstIn('xab/c')).toBe(-1);
  });

  test('agrees with a search per pattern on 3 000 random cases, in at most two steps per character', () => {
    const next = random(39);
    const word = (most: number) =>
      Array.from({ length: Math.floor(next() * most) }, () => 'ab./-:'[Math.floor(next() * 6)]).join('');
    for (let round = 0; round < 3000; round += 1) {
      const patterns = Array.from({ length: 1 + Math.floor(next() * 6) }, (_, id) => ({
        text: word(6) || 'a',
        id,
        hostEnd: next() < 0.5,
      }));
      const text = word(40);
      const matcher = new AddressMatcher(patterns);
      expect([patterns, text, matcher.firstIn(text) !== -1]).toEqual([patterns, text, naive(patterns, text)]);
      expect(matcher.steps).toBeLessThanOrEqual(2 * text.length);
    }
  });
});

describe('AddressMatcher held in typed arrays (sorted trie, children by binary search)', () => {
  test('agrees with a search per pattern over a wide alphabet: non-ASCII, upper case, surrogates, shared prefixes', () => {
    const next = random(42);
    const alphabet = ['a', 'b', '.', '/', '-', ':', 'é', 'ſ', 'K', 'B', '\ud83d', '\ude00', '\u0100', '0', '_', ' '];
    const word = (most: number) =>
      Array.from({ length: Math.floor(next() * most) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let round = 0; round < 600; round += 1) {
      const stem = word(4);
      const patterns = Array.from({ length: 1 + Math.floor(next() * 40) }, (_, id) => ({
        text: (next() < 0.6 ? stem : '') + (word(5) || 'a'),
        id,
        hostEnd: next() < 0.5,
      }));
      const text = word(60);
      const matcher = new AddressMatcher(patterns);
      expect([patterns, text, matcher.firstIn(text) !== -1]).toEqual([patterns, text, naive(patterns, text)]);
      expect(matcher.steps).toBeLessThanOrEqual(2 * text.length);
    }
  });

  test('a state with hundreds of children finds each of them, and nothing between them', () => {
    const patterns = Array.from({ length: 600 }, (_, id) => ({
      text: `ab${String.fromCharCode(0x21 + 2 * id)}z`,
      id,
      hostEnd: false,
    }));
    const matcher = new AddressMatcher(patterns);
    for (const { text, id } of patterns) expect(matcher.firstIn(`x ${text} y`)).toBe(id);
    for (let id = 0; id < 600; id += 1) expect(matcher.firstIn(`x ab${String.fromCharCode(0x22 + 2 * id)}z`)).toBe(-1);
  });

  test('the same text given twice is reported by the later id; an empty pattern is never found', () => {
    const matcher = new AddressMatcher([
      { text: '10.0.0.1', id: 0, hostEnd: true },
      { text: '', id: 1, hostEnd: false },
      { text: '10.0.0.1', id: 2, hostEnd: true },
    ]);
    expect(matcher.firstIn('see 10.0.0.1 now')).toBe(2);
    expect(matcher.firstIn('see 10.0.0.12 now')).toBe(-1);
    expect(matcher.firstIn('nothing')).toBe(-1);
    expect(matcher.chars).toBe(16);
  });
});

describe('AddressSearch', () => {
  test("an address's forms: as written, read back, dotted and as the URL parser writes it", () => {
    const texts = (uri: string) => addressForms(uri).map((f) => f.text);
    expect(texts('http://10.0.0.2/%61dmin')).toEqual(['10.0.0.2/%61dmin', '10.0.0.2/admin']);
    expect(texts('http://0xA9FEA9FE/latest')).toEqual(['0xa9fea9fe/latest', '169.254.169.254/latest']);
    expect(texts('https://Bücher.example/')).toEqual(['bücher.example', 'xn--bcher-kva.example']);
    expect(addressForms('http://a.co/')).toEqual([{ text: 'a.co', hostEnd: true }]);
    expect(texts('javascript:x')).toEqual(['javascript:x']);
  });

  test('addresses added one at a time between searches are built into few levels, each about log2 times', () => {
    const search = new AddressSearch<number>();
    for (let i = 0; i < 2000; i += 1) {
      search.add(`http://10.4.${i >> 8}.${i & 255}/s-${i}`, i);
      expect(search.find(`progress ${i}`)).toBeUndefined();
      expect(search.levels).toBeLessThanOrEqual(Math.ceil(Math.log2(i + 1)) + 1);
    }
    expect(search.builtChars).toBeLessThanOrEqual(search.chars * 13);
    expect(search.find('see 10.4.0.9/s-9 now')).toBe(9);
    expect(search.find('see 10.4.7.200/s-2000 now')).toBeUndefined();
  });
});
