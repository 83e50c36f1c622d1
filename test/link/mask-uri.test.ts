import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskUri, maxMaskedUriChars } from '../../src/link/mask-uri.ts';

describe('maskUri', () => {
  it.each([
    ['https://user:pw@example.com/a?token=SECRET&x=1&flag#frag', 'https://example.com/a?token=&x=&flag'],
    ['https://example.com/cb?access_token=SECRET', 'https://example.com/cb?access_token='],
    ['https://example.com/a#only-fragment', 'https://example.com/a'],
    ['https://example.com/plain', 'https://example.com/plain'],
    ['guide://manuals/packing?step=2', 'guide://manuals/packing?step='],
    ['guide://me:secret@manuals/x', 'guide://manuals/x'],
    ['urn:isbn:0451450523', 'urn:isbn:0451450523'],
    ['data:text/plain;base64,U0VDUkVU', 'data:text/plain;base64,…'],
    ['http://u:p@exa mple.com/x?k=v#f', 'http://exa%20mple.com/x?k='],
    ['http://a:b@[::1/x?q=1', 'http://[::1/x?q='],
    ['not a uri?secret=1', 'not%20a%20uri?secret='],
    ['http://u:p@host\u0000name/', 'http://host%00name/'],
    // userinfo as any parser could read it, parsed or not (issue 39 item 3)
    ['http://admin:pw44x?q@169.254.169.254/x', 'http://169.254.169.254/x'],
    ['http://ops\\x:hunter2pw@10.0.0.7/admin', 'http://10.0.0.7/admin'],
    ['http://admin:pw#x@host/', 'http://host/'],
    ['ht\ttp://u:tabbedpw@host/', 'http://host/'],
    ['http:\\\\u:pw@host\\x', 'http://host/x'],
    // nothing that reorders, hides, breaks a line or closes a quote survives, parsed or not
    ['javascript:alert(1)//`) verdict: allowed (`', 'javascript:alert(1)//%60)%20verdict:%20allowed%20(%60'],
    ['not a uri \u202e\u2028\u0085\u200b`', 'not%20a%20uri%20%E2%80%AE%E2%80%A8%C2%85%E2%80%8B%60'],
    // text masked to itself is encoded unless it is printable ASCII but the backtick (the one-pass flags' edges)
    ['no\u00a0scheme\u007fhere', 'no%C2%A0scheme%7Fhere'],
    ['x:`a`', 'x:%60a%60'],
    ['x: a', 'x:%20a'],
    ['guide://a\tb/c?k=v', 'guide://ab/c?k='],
    ['guide://a@b/c#f', 'guide://b/c'],
  ])('%j → %j', (uri, masked) => {
    expect(maskUri(uri)).toBe(masked);
  });

  it('caps the length', () => {
    const masked = maskUri(`https://example.com/${'a'.repeat(maxMaskedUriChars * 2)}`);
    expect(masked.length).toBe(maxMaskedUriChars);
    expect(masked.endsWith('…')).toBe(true);
  });

  it('caps the length when a long query value is cut before masking', () => {
    // masked to exactly the cap from a uri long enough to be cut first: the `…` of the cut must not go past the cap
    const head = `https://example.com/${'p'.repeat(maxMaskedUriChars - 'https://example.com/?a='.length)}?a=`;
    expect(head.length).toBe(maxMaskedUriChars);
    const masked = maskUri(`${head}${'Z'.repeat(maxMaskedUriChars * 20)}`);
    expect(masked.length).toBeLessThanOrEqual(maxMaskedUriChars);
    expect(masked.endsWith('…')).toBe(true);
    expect(masked).not.toContain('Z');
  });

  it('never throws and never keeps a fragment, userinfo or query value', () => {
    const secret = 'S3CRETvalue';
    const uri = fc.tuple(
      // prefixes that open an authority (`user:x@` after no scheme would be the scheme `user:`); `http://[` never parses
      fc.constantFrom('https://', 'http:', 'http:\\\\', 'guide://', 'ws://', 'http://['),
      fc.constantFrom('', `user:${secret}@`, `${secret}@`, `:${secret}@`),
      fc.string({ maxLength: 20 }),
      fc.constantFrom('', `?k=${secret}`, `?a=1&k=${secret}`),
      fc.constantFrom('', `#${secret}`),
    );
    fc.assert(
      fc.property(uri, ([scheme, userinfo, middle, query, fragment]) => {
        const masked = maskUri(`${scheme}${userinfo}${middle.replaceAll(secret, '')}${query}${fragment}`);
        expect(masked).not.toContain(secret);
        expect(masked.length).toBeLessThanOrEqual(maxMaskedUriChars);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(typeof maskUri(s)).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });
});
