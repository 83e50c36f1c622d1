// A text blob (an embedded resource's or a read's base64 `blob`) reaches the model as its text: the address search
// searched it as its base64 only, so a refused address in a text/plain blob beside the refusal or later reached the
// host (red team round 7). Base64 of text is searched decoded; base64 of an image is not (no cost, no chance match),
// and the decoded text counts in the session search's bound while an image does not. The image is a real one (sharp
// encodes it).
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { AddressSearch } from '../../src/flow/address-search.ts';
import { blobText } from '../../src/flow/blob-text.ts';
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

  test('a text blob counts in the session bound, an image does not', async () => {
    const image = await photo(160);
    const capBytes = Math.ceil(image.length * 1.2);
    const session = new RefusedAddresses(capBytes);
    session.noteDecided(metadata, { effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] } as never);
    expect(session.maxSearchedChars).toBe(capBytes);
    expect(session.names({ contents: [{ uri: 'rt://i', mimeType: 'image/png', blob: image }] })).toBe(false);
    // a text blob as long: its text counts too, past the bound (fails closed)
    const text = Buffer.from('x'.repeat(Math.ceil((image.length * 3) / 4))).toString('base64');
    expect(session.names({ contents: [{ uri: 'rt://t', mimeType: 'text/plain', blob: text }] })).toBe(true);
  });
});
