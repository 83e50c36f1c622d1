import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maskUri } from '../../src/link/mask-uri.ts';
import { readCanonicalNetworkUri } from '../../src/link/canonical-network-uri.ts';
import { parseUri } from '../../src/link/parse-uri.ts';
import { parsedUrl } from '../../src/link/reused-url.ts';

describe('one WHATWG parse per link: the decision takes the reading maskUri made of the same text', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('masking a link for its record and then deciding it parses the uri once', () => {
    const parse = vi.spyOn(URL, 'parse');
    const uri = 'guide://manuals/packing/1';
    expect(maskUri(uri)).toBe(uri);
    const parsed = parseUri(uri);
    expect(parsed.ok && parsed.url.href).toBe(uri);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('a usual link that is its own WHATWG serialization is masked and decided with no parse at all', () => {
    const parse = vi.spyOn(URL, 'parse');
    const uri = 'https://docs.example.com/guide/1.md';
    expect(maskUri(uri)).toBe(uri);
    expect(parseUri(uri).ok).toBe(true);
    expect(parse).not.toHaveBeenCalled();
  });

  it('property: a network uri masked without a parse is masked as WHATWG reads it', () => {
    const uri = fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'ws://', 'wss://', 'HTTP://'),
        fc.constantFrom(
          'a',
          'docs.example.com',
          'x-y.io',
          'a.b0',
          'xn--fa-hia.de',
          '1.2.3.4',
          '01.2.3.4',
          '[::1]',
          '[0::1]',
        ),
        fc.constantFrom('', ':8080', ':80', ':443', ':0', ':65535', ':65536', ':08'),
        fc
          .array(
            fc.constantFrom('/', 'a', 'Z', '0', '.', '..', '%41', '%2e', '%g', '~', "'", '(', '=', ':', '@', '-'),
            {
              maxLength: 12,
            },
          )
          .map((p) => `/${p.join('')}`),
      )
      .map((parts) => parts.join(''));
    // none has a userinfo, query or fragment: each is masked as WHATWG serializes it, and those read as their own
    // serialization (about one in seven) are masked with no parse
    let canonical = 0;
    fc.assert(
      fc.property(uri, (u) => {
        const url = URL.parse(u);
        if (url === null) return;
        if (readCanonicalNetworkUri(u)?.address === null) {
          canonical += 1;
          expect(url.href).toBe(u);
        }
        expect(maskUri(u)).toBe(url.href);
      }),
      { numRuns: 5000 },
    );
    expect(canonical).toBeGreaterThan(100);
  });

  it('a reading is taken once, and only for the same text', () => {
    maskUri('guide://manuals/packing');
    expect(parsedUrl('guide://manuals/other')?.href).toBe('guide://manuals/other');
    const first = parsedUrl('guide://manuals/packing');
    const second = parsedUrl('guide://manuals/packing');
    expect(first?.href).toBe('guide://manuals/packing');
    expect(second).not.toBe(first);
  });

  it('a reading maskUri changed (userinfo, query, fragment) is never handed on', () => {
    for (const uri of ['https://u:p@example.com/a', 'https://example.com/a?token=SECRET', 'https://example.com/a#f']) {
      maskUri(uri);
      expect(parsedUrl(uri)?.href).toBe(new URL(uri).href);
    }
  });

  it('property: a uri masked first is decided from the same reading as one never masked', () => {
    const piece = fc.constantFrom(
      'a',
      'B',
      '0',
      '.',
      ':',
      '@',
      '/',
      '\\',
      '?',
      '#',
      '%',
      '[',
      ']',
      '=',
      '&',
      'ß',
      '%30',
    );
    const uri = fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'ws:', 'guide://', 'guide:', 'urn:', 'file://', 'data:'),
        fc.array(piece, { maxLength: 24 }).map((p) => p.join('')),
      )
      .map(([head, tail]) => `${head}${tail}`);
    const reading = (u: string) => {
      const parsed = parseUri(u);
      return parsed.ok ? { ...parsed, url: parsed.url.href, schemeFacts: null } : parsed;
    };
    fc.assert(
      fc.property(uri, (u) => {
        const fresh = reading(u);
        const masked = maskUri(u);
        expect(reading(u)).toEqual(fresh);
        expect(maskUri(u)).toBe(masked);
      }),
      { numRuns: 3000 },
    );
  });
});
