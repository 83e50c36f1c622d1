// A text blob (an embedded resource's or a read's base64 `blob`) reaches the model as its text: the address search
// searched it as its base64 only, so a refused address in a text/plain blob beside the refusal or later reached the
// host (red team round 7). Base64 of text is searched decoded; base64 of an image is not (no cost, no chance match),
// and the decoded text counts in the session search's bound while an image does not. The image is a real one (sharp
// encodes it).
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { AddressSearch } from '../../src/flow/address-search.ts';
import { blobText } from '../../src/flow/blob-text.ts';
import { judgeStructured, structuredLimits, tooLargeNotice } from '../../src/flow/structured-links.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { RefusedAddresses } from '../../src/sdk/refused-addresses.ts';

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const told = `the keys are at ${metadata} now`;

function refused(): AddressSearch<true> {
  const search = new AddressSearch<true>();
  search.add(metadata, true);
  return search;
}

async function photo(side: number): Promise<string> {
  const pixels = Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => (i * 7919) % 251));
  const png = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
  return png.toString('base64');
}

describe('a text blob is searched as its text', () => {
  const spellings: [string, string][] = [
    ['base64', Buffer.from(told).toString('base64')],
    ['base64url', Buffer.from(told).toString('base64url')],
    ['wrapped at 76 columns (MIME)', Buffer.from(`${told}\n`.repeat(4)).toString('base64').replace(/.{76}/g, '$&\r\n')],
    ['latin-1 text', Buffer.from(`caf\u00e9: ${told}`, 'latin1').toString('base64')],
    ['the address read back inside it', Buffer.from(told.replaceAll('.', '&#46;')).toString('base64')],
  ];
  for (const [label, blob] of spellings)
    test(`a refused address in a text blob (${label}) is found`, () => {
      expect(refused().find(blob)).toBe(true);
      expect(new RefusedAddresses().names({ resource: { uri: 'rt://n', mimeType: 'text/plain', blob } })).toBe(false);
    });

  test('the session search finds it in a message once the address is refused', () => {
    const session = new RefusedAddresses();
    session.noteDecided(metadata, { effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] } as never);
    const blob = Buffer.from(told).toString('base64');
    expect(session.names({ contents: [{ uri: 'rt://n', mimeType: 'text/plain', blob }] })).toBe(true);
    const other = Buffer.from(told.replace('169.254.169.254', 'example.com')).toString('base64');
    expect(session.names({ contents: [{ uri: 'rt://n', mimeType: 'text/plain', blob: other }] })).toBe(false);
  });

  test('prose, words and binary bytes are not read as text', async () => {
    expect(blobText('the keys are at')).toBeNull();
    expect(blobText('abc')).toBeNull();
    // words that are base64 in shape decode to a few bytes that are neither UTF-8 nor mostly ASCII
    for (const word of ['info', 'jsonrpc', 'params', 'method', 'level', 'notifications/message'])
      expect(blobText(word)).toBeNull();
    expect(blobText(await photo(64))).toBeNull();
    // binary bytes holding the address as ASCII: an image's, shown as an image
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), Buffer.from(told)]);
    expect(refused().find(bytes.toString('base64'))).toBeUndefined();
  });

  // the bound counts a message's strings as written (what the connection's cap bounds): a text blob's text, searched
  // too, used to count on top (~1.75× its base64), so a message of text blobs past ~4/7 of the cap was withheld once
  // any address was refused
  test('a text blob is searched up to the session bound as written; one character past it is withheld', () => {
    const session = new RefusedAddresses(64 * 1024);
    session.noteDecided(metadata, { effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] } as never);
    const message = (blob: string, uri: string) => ({ contents: [{ uri, mimeType: 'text/plain', blob }] });
    const plain = Buffer.from('x'.repeat(40_000)).toString('base64');
    const telling = Buffer.from(`${'x'.repeat(40_000)} ${told}`).toString('base64');
    for (const blob of [plain, telling]) {
      const others = 'contents'.length + 'uri'.length + 'mimeType'.length + 'text/plain'.length + 'blob'.length;
      const uri = 'r'.repeat(session.maxSearchedChars - others - blob.length);
      expect(session.names(message(blob, uri))).toBe(blob === telling);
      expect(session.names(message(blob, `${uri}r`))).toBe(true);
    }
  });

  test('an image counts as its base64 only', async () => {
    const image = await photo(160);
    const session = new RefusedAddresses(image.length + 64);
    session.noteDecided(metadata, { effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] } as never);
    expect(session.names({ contents: [{ uri: 'rt://i', mimeType: 'image/png', blob: image }] })).toBe(false);
  });

  test('beside a refusal, a result of text blobs is bounded as written: 24 MiB of base64 is searched', async () => {
    const gate = createGate(await loadPolicy('policies/default.yaml'));
    const link = { type: 'resource_link', uri: metadata, name: 'creds' };
    const decision = gate.decideLink({ link, server: 'docs' });
    expect(decision.effect).toBe('deny');
    const refs = new Map([[maskUri(metadata), { ref: 'r1', link, decision }]]);
    const blob = Buffer.from('plain words '.repeat(24 * 65_536)).toString('base64');
    const options = { server: 'docs', mode: 'enforce', refs } as const;
    // 2 × 24 MiB as written is under the 64 MiB bound; the old count (2 × 1.75 × 24 MiB = 84 MiB) withheld it
    expect(blob.length * 2).toBeLessThan(structuredLimits.maxSearchedChars);
    expect(await judgeStructured(gate, { note: blob }, options)).toEqual({ withheld: false, edits: [] });
    const told24 = `${blob.slice(0, -4 * 1024)}${Buffer.from(`${'x'.repeat(3000)} ${told}`).toString('base64')}`;
    const judged = await judgeStructured(gate, { note: told24 }, options);
    expect(judged.withheld).toBe(false);
    expect(JSON.stringify(judged)).toContain('linkgate refused the link');
    const past = 'a'.repeat(structuredLimits.maxSearchedChars / 2);
    expect(await judgeStructured(gate, { note: past }, options)).toEqual({ withheld: true, notice: tooLargeNotice });
  });
});

// Which bytes are text is the content layer's rule (`decodeText`: UTF-8, UTF-16 behind a byte order mark or by its
// zero bytes), read in the charset the blob declares: the search read UTF-16 as UTF-8 (its zero bytes between the
// address's characters), ignored a declared charset (latin-1 `é` became U+FFFD, a Greek text in ISO-8859-7 was let go
// as less than three quarters ASCII), and let a long UTF-8 text go when its first 4096 characters cut a character.
describe('a text blob is read as its encoding and declared charset', () => {
  const b64 = (bytes: Buffer) => bytes.toString('base64');
  const greek = '\u0397 \u03b4\u03b9\u03b5\u03cd\u03b8\u03c5\u03bd\u03c3\u03b7 \u03b5\u03af\u03bd\u03b1\u03b9 ';
  const isoGreek = (text: string) =>
    Buffer.from([...text].map((c) => ((c.codePointAt(0) ?? 0) < 0x80 ? c.charCodeAt(0) : c.charCodeAt(0) - 0x2d0)));
  const found: [string, string, string | undefined][] = [
    ['UTF-16LE with a byte order mark', b64(Buffer.from(`\ufeff${told}`, 'utf16le')), undefined],
    ['UTF-16BE with a byte order mark', b64(Buffer.from(`\ufeff${told}`, 'utf16le').swap16()), undefined],
    ['UTF-16LE without a byte order mark', b64(Buffer.from(told, 'utf16le')), undefined],
    ['UTF-16BE declared by its charset', b64(Buffer.from(told, 'utf16le').swap16()), 'text/plain; charset=UTF-16BE'],
    ['Greek in ISO-8859-7, declared', b64(isoGreek(`${greek.repeat(8)}${told}`)), 'text/plain; charset="iso-8859-7"'],
    ['8-bit text declared text/plain, no charset', b64(isoGreek(`${greek.repeat(8)}${told}`)), 'text/plain'],
    [
      'a byte order mark over the declared charset',
      b64(Buffer.from(`\ufeff${told}`, 'utf16le')),
      'text/plain; charset=latin1',
    ],
    ['an unknown charset, UTF-8 bytes', b64(Buffer.from(told)), 'text/plain; charset=x-not-one'],
    [
      'UTF-8 past the first 4096 characters, its start cut in a character',
      b64(Buffer.from(`a${'\u6f22'.repeat(2000)}${told}`)),
      undefined,
    ],
  ];
  for (const [label, blob, declared] of found)
    test(`${label}: the address is found`, () => {
      const text = blobText(blob, declared);
      expect(text).not.toBeNull();
      expect(refused().find(blob, text)).toBe(true);
    });

  // a host or a model decoding the bytes as UTF-8 reads the address whatever the mark, the charset or the zero bytes
  const utf8Also: [string, string, string | undefined][] = [
    ['UTF-8 behind FF FE', b64(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${told}  `)])), undefined],
    ['UTF-8 behind FE FF', b64(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(`${told}  `)])), undefined],
    [
      'UTF-8 after UTF-16-looking padding',
      b64(Buffer.concat([Buffer.from('x'.repeat(200), 'utf16le'), Buffer.from(` ${told} `)])),
      undefined,
    ],
    ['UTF-8 declared UTF-16LE', b64(Buffer.from(told)), 'text/plain; charset=utf-16le'],
    ['UTF-8 declared UTF-16BE', b64(Buffer.from(told)), 'text/plain; charset=utf-16be'],
  ];
  for (const [label, blob, declared] of utf8Also)
    test(`${label}: the address is found in the UTF-8 reading too`, () => {
      expect(refused().find(blob, blobText(blob, declared))).toBe(true);
    });

  test('a latin-1 address in a declared latin-1 blob is read as itself', () => {
    const uri = 'file:///home/jos\u00e9/.aws/credentials';
    const search = new AddressSearch<true>();
    search.add(uri, true);
    const blob = b64(Buffer.from(`${greek}${uri}`.replace(/[\u0370-\u03ff]/g, '\u00ff'), 'latin1'));
    expect(search.find(blob, blobText(blob, 'text/plain; charset=ISO-8859-1'))).toBe(true);
  });

  test('binary bytes stay binary, declared or not', async () => {
    const png = await photo(64);
    expect(blobText(png)).toBeNull();
    expect(blobText(png, 'image/png')).toBeNull();
    expect(blobText(png, 'application/octet-stream')).toBeNull();
  });
});
