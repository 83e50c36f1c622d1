import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discoverLink, type LinkStep, startLinkNow, uriReading } from '../../src/flow/link-steps.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { readCanonicalNetworkUri } from '../../src/link/canonical-network-uri.ts';
import { parseUri } from '../../src/link/parse-uri.ts';
import { canonicalParts, parsedUrl, UriReading } from '../../src/link/reused-url.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

describe('one WHATWG parse per link: the decision takes the reading maskUri made of the same text, handed by the caller', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('masking a link for its record and then deciding it parses the uri once', () => {
    const parse = vi.spyOn(URL, 'parse');
    // (a `%` takes it out of the grammar `readCanonicalOpaqueUri` reads without a parse)
    const uri = 'guide://manuals/packing%201';
    const reading = new UriReading(uri);
    expect(maskUri(uri, reading)).toBe(uri);
    const parsed = parseUri(uri, reading);
    expect(parsed.ok && parsed.url.href).toBe(uri);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('no module state: links masked one after another are each decided from their own reading', () => {
    // (a one-entry hand-off kept only the last link masked: the first was parsed again for its decision)
    const parse = vi.spyOn(URL, 'parse');
    const uris = ['guide://manuals/a%20', 'guide://manuals/b%20', 'guide://manuals/c%20'];
    const readings = uris.map((u) => new UriReading(u));
    uris.forEach((u, i) => expect(maskUri(u, readings[i])).toBe(u));
    uris.forEach((u, i) => expect(parseUri(u, readings[i]).ok).toBe(true));
    expect(parse).toHaveBeenCalledTimes(3);
    // and a decision with no reading handed to it parses for itself, whatever was masked before
    expect(parseUri('guide://manuals/a%20').ok).toBe(true);
    expect(parse).toHaveBeenCalledTimes(4);
  });

  it('a gate decision takes the reading handed to it: the same decision, one parse', async () => {
    const gate = createGate(await loadPolicy('policies/default.yaml'));
    for (const uri of ['guide://manuals/packing', 'guide://0x7f.1/x', 'http://169.254.169.254/latest/']) {
      const input = { stage: 'link', server: 'docs', link: { type: 'resource_link', uri, name: 'x' } };
      const alone = gate.decideLink(input);
      const parse = vi.spyOn(URL, 'parse');
      const reading = new UriReading(uri);
      maskUri(uri, reading);
      expect(gate.decideLink(input, reading)).toEqual(alone);
      expect(parse.mock.calls.length).toBeLessThanOrEqual(1);
      parse.mockRestore();
    }
  });

  it('a usual link that is its own WHATWG serialization is masked and decided with no parse at all', () => {
    const parse = vi.spyOn(URL, 'parse');
    const uri = 'https://docs.example.com/guide/1.md';
    expect(maskUri(uri)).toBe(uri);
    expect(parseUri(uri).ok).toBe(true);
    expect(parse).not.toHaveBeenCalled();
  });

  it('a usual custom-scheme link, its own WHATWG serialization, is masked and decided with no parse at all', async () => {
    const gate = createGate(await loadPolicy('policies/default.yaml'));
    const parse = vi.spyOn(URL, 'parse');
    const construct = vi.spyOn(globalThis, 'URL');
    const uri = 'guide://manuals/packing/1';
    const reading = new UriReading(uri);
    expect(maskUri(uri, reading)).toBe(uri);
    const input = { stage: 'link', server: 'docs', link: { type: 'resource_link', uri, name: 'x' } };
    expect(gate.decideLink(input, reading).effect).toBe('allow');
    expect(parse).not.toHaveBeenCalled();
    expect(construct).not.toHaveBeenCalled();
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

  it('the flow hands its reading on: links found side by side are each masked and decided with one parse', async () => {
    const gate = createGate(await loadPolicy('policies/default.yaml'));
    const context = { server: 'docs', tool: 't', responseId: 1, protocolVersion: null, client: null, serverInfo: null };
    const links = ['a', 'b', 'c'].map((n) => ({ type: 'resource_link', uri: `guide://manuals/${n}%20`, name: n }));
    const parse = vi.spyOn(URL, 'parse');
    // all discovered first, then all decided (as a result's links are): no reading is lost between them
    const found = links.map((link, i) => {
      const reading = uriReading(link);
      return { link, reading, discovered: discoverLink(link, i, context, new Date(), reading), linkServer: 'docs' };
    });
    // (a gate with no resolver decides at once: a step, no promise)
    const steps = found.map((input) => startLinkNow(gate, input) as LinkStep);
    expect(steps.map((s) => s.discovered.uri)).toEqual(links.map((l) => l.uri));
    expect(parse).toHaveBeenCalledTimes(3);
  });

  it('a reading is taken only for its own text, and only as a UriReading', () => {
    const reading = new UriReading('guide://manuals/packing');
    maskUri('guide://manuals/packing', reading);
    expect(parsedUrl('guide://manuals/other', reading)?.href).toBe('guide://manuals/other');
    expect(parsedUrl('guide://manuals/packing', reading)).toBe(reading.url);
    // an object of the same shape is not a reading (its url need not be its text's)
    const forged = { text: 'guide://manuals/packing', url: new URL('https://example.com/') } as unknown as UriReading;
    expect(parsedUrl('guide://manuals/packing', forged)?.href).toBe('guide://manuals/packing');
  });

  it('a reading maskUri changed (userinfo, query, fragment) is never handed on', () => {
    for (const uri of ['https://u:p@example.com/a', 'https://example.com/a?token=SECRET', 'https://example.com/a#f']) {
      const reading = new UriReading(uri);
      expect(maskUri(uri, reading)).not.toMatch(/u:p@|SECRET|#f/);
      expect(parsedUrl(uri, reading)?.href).toBe(new URL(uri).href);
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
    const reading = (u: string, shared?: UriReading) => {
      const parsed = parseUri(u, shared);
      // every member a ParsedUri has, own or on its prototype (a canonical one keeps its constant members there)
      return parsed.ok
        ? {
            ok: parsed.ok,
            scheme: parsed.scheme,
            special: parsed.special,
            hasAuthority: parsed.hasAuthority,
            host: parsed.host,
            port: parsed.port,
            explicitPort: parsed.explicitPort,
            userinfo: parsed.userinfo,
            confusions: parsed.confusions,
            otherHosts: parsed.otherHosts,
            url: parsed.url.href,
          }
        : parsed;
    };
    fc.assert(
      fc.property(uri, (u) => {
        const fresh = reading(u);
        const masked = maskUri(u);
        const shared = new UriReading(u);
        expect(maskUri(u, shared)).toBe(masked);
        expect(reading(u, shared)).toEqual(fresh);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('one canonical reading per link: maskUri and the decision share the record of a usual link', () => {
  it('the record read for the mask is the one the decision reads; another text gets its own', () => {
    const uri = 'https://docs.example.com/guide/1.md';
    const reading = new UriReading(uri);
    expect(maskUri(uri, reading)).toBe(uri);
    const kept = reading.canonical;
    expect(kept).toEqual(readCanonicalNetworkUri(uri));
    expect(canonicalParts(uri, reading)).toBe(kept);
    expect(canonicalParts('https://other.example.com/', reading)).toEqual(
      readCanonicalNetworkUri('https://other.example.com/'),
    );
    expect(canonicalParts('https://other.example.com/', reading)).not.toBe(kept);
    const parsed = parseUri(uri, reading);
    expect(parsed.ok && parsed.host).toEqual({ kind: 'name', text: 'docs.example.com' });
    expect(reading.canonical).toBe(kept);
  });

  it('a canonical uri reads its constant members as the WHATWG path does', () => {
    const fast = parseUri('https://docs.example.com/a');
    const slow = parseUri('HTTPS://docs.example.com/a');
    expect(fast.ok && slow.ok).toBe(true);
    if (!fast.ok || !slow.ok) return;
    expect([fast.special, fast.hasAuthority, fast.userinfo, fast.confusions]).toEqual([
      slow.special,
      slow.hasAuthority,
      slow.userinfo,
      slow.confusions,
    ]);
  });
});

describe('a custom host read after another: the same reading whether the last host is reused or read again', () => {
  // the reading of `uri` with the last-host shortcut cold: another host read just before
  const cold = (uri: string) => {
    parseUri('zz://reset-the-last-host/');
    return parseUri(uri);
  };
  const view = (parsed: ReturnType<typeof parseUri>) =>
    parsed.ok
      ? {
          host: parsed.host,
          otherHosts: parsed.otherHosts,
          port: parsed.port,
          confusions: parsed.confusions,
          userinfo: parsed.userinfo,
        }
      : parsed;

  it('a host that only starts the next authority is not taken for it', () => {
    for (const [first, second] of [
      ['guide://a/', 'guide://a@b/'],
      ['guide://a/', 'guide://a:99/'],
      ['guide://a/', 'guide://ab/'],
      ['guide://a/', 'guide://a.b/'],
      ['guide://a/', 'guide://a?q'],
      ['guide://a/', 'guide://a#f'],
      ['guide://a/', 'guide://a'],
      ['guide://a/', 'guide:a/'],
      ['guide://127.0.0.1/', 'guide://127.0.0.1@169.254.169.254/'],
      ['guide://%41/', 'guide://%41/x'],
      ['guide://[::1]/', 'guide://[::1]/'],
      ['guide://x/', 'guide://X/'],
    ]) {
      parseUri(first as string);
      expect(view(parseUri(second as string)), `${first} then ${second}`).toEqual(view(cold(second as string)));
    }
  });

  it('property: any custom uri after any other reads as it does cold', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      'A',
      '1',
      '.',
      ':',
      '@',
      '/',
      '?',
      '#',
      '%41',
      '%',
      '[',
      ']',
      '-',
      '0x7f',
      '127.0.0.1',
    );
    const uri = fc
      .tuple(
        fc.constantFrom('guide://', 'guide:', 'bench://', 'GUIDE://'),
        fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
      )
      .map(([head, tail]) => `${head}${tail}`);
    fc.assert(
      fc.property(uri, uri, (first, second) => {
        parseUri(first);
        expect(view(parseUri(second))).toEqual(view(cold(second)));
      }),
      { numRuns: 3000 },
    );
  });
});
