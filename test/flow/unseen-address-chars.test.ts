// Code points IDNA maps to nothing (U+00AD, U+200B, U+FEFF, variation selectors, …) hid a refused address from the
// search (`readBack` kept them): `169.254.169.254` with a soft hyphen in its host is the same address to the WHATWG URL
// parser, and a path with one reads the same to anyone who sees the text. The oracles are the real parsers: tr46's
// UTS #46 table and Node's WHATWG host parser list the code points; `new URL` says the written uri is the refused one.
import { createRequire } from 'node:module';
import { domainToASCII } from 'node:url';
import { describe, expect, test } from 'vitest';
import { AddressSearch } from '../../src/flow/address-search.ts';

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const load = createRequire(import.meta.url);
const tr46Table = load('tr46/lib/mappingTable.json') as [number | [number, number], number, string?][];
const tr46 = load('tr46') as { toASCII(domain: string): string | null };
const ignoredStatus = 7;
const mappedStatus = 1;

// every code point tr46's table maps to nothing (ignored, or mapped to the empty string)
function tr46Deleted(): number[] {
  const found: number[] = [];
  for (const [range, status, mapping] of tr46Table) {
    if (status !== ignoredStatus && !(status === mappedStatus && mapping === '')) continue;
    const [from, to] = Array.isArray(range) ? range : [range, range];
    for (let c = from; c <= to; c += 1) found.push(c);
  }
  return found;
}

// every code point Node's WHATWG host parser (ICU's UTS #46) deletes from a host
function hostParserDeleted(): number[] {
  const found: number[] = [];
  for (let c = 0x80; c < 0x110000; c += 1) {
    if (c >= 0xd800 && c < 0xe000) continue;
    if (domainToASCII(`a${String.fromCodePoint(c)}b.example`) === 'ab.example') found.push(c);
  }
  return found;
}

const deleted = [...new Set([...tr46Deleted(), ...hostParserDeleted()])].sort((a, b) => a - b);

function refused(...uris: string[]): AddressSearch<string> {
  const search = new AddressSearch<string>();
  for (const uri of uris) search.add(uri, uri);
  return search;
}

describe('an address written with code points IDNA deletes is still found', () => {
  test('the oracles agree there are such code points (the soft hyphen, U+200B, U+FEFF, U+E0100 among them)', () => {
    expect(deleted.length).toBeGreaterThan(250);
    for (const c of [0xad, 0x200b, 0x2060, 0xfeff, 0x34f, 0x180b, 0x180f, 0xfe00, 0xfe0f, 0xe0100])
      expect(deleted).toContain(c);
  });

  test('each of them inside the host: a host parser reads the refused address, and the search finds it', () => {
    const search = refused(metadata);
    const missed: string[] = [];
    for (const c of deleted) {
      const host = `169.254.${String.fromCodePoint(c)}169.254`;
      const written = `http://${host}/latest/meta-data/iam/security-credentials/`;
      // the oracle: the WHATWG URL parser reaches the refused address, or (code points newer than Node's ICU) tr46
      expect(URL.canParse(written) ? new URL(written).href : tr46.toASCII(host)).toBe(
        URL.canParse(written) ? metadata : '169.254.169.254',
      );
      if (search.find(`now read ${written} please`) !== metadata) missed.push(c.toString(16));
    }
    expect(missed).toEqual([]);
  });

  test('percent-encoded as UTF-8 in the host (the host parser decodes it, then deletes it)', () => {
    const search = refused(metadata);
    for (const encoded of ['%C2%AD', '%E2%80%8B', '%EF%BB%BF', '%EF%B8%8F']) {
      const written = `http://169.254.${encoded}169.254/latest/meta-data/iam/security-credentials/`;
      expect(new URL(written).href).toBe(metadata);
      expect(search.find(`see ${written}`)).toBe(metadata);
    }
  });

  test('inside a path: invisible to a reader (default-ignorable), so the text names the refused file', () => {
    const search = refused('file:///etc/passwd');
    const missed: string[] = [];
    for (const c of deleted) {
      const ch = String.fromCodePoint(c);
      expect(/\p{Default_Ignorable_Code_Point}/u.test(ch)).toBe(true);
      if (search.find(`cat file:///etc/pas${ch}swd`) === undefined) missed.push(c.toString(16));
    }
    expect(missed).toEqual([]);
  });

  test('the refused uri itself written with them keeps the address a consumer reads', () => {
    const search = refused('http://169.254.\u00ad169.254/latest/meta-data/');
    expect(search.find('now read 169.254.169.254/latest/meta-data/ please')).toBeDefined();
  });
});
