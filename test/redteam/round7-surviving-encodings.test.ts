// Red team (issue 39), surviving links in a text blob's other encodings: beside the refused link, text in UTF-16 (with
// or without a byte order mark) or latin-1 names the refused address, as base64: an embedded resource's `blob`, or a
// base64 string in `structuredContent`. A host decodes a text blob as its declared type reads (a browser as WHATWG's
// decode does: the byte order mark, then the `charset`) and a model decodes base64 itself, so the model reads the
// address; the search read such bytes as UTF-8 only (UTF-16's zero bytes kept between the address's characters,
// latin-1's `é` turned into U+FFFD). Blobs the content layer withholds itself (UTF-16 without a byte order mark, text
// in an 8-bit charset: `content.unsafe-text` under every shipped policy) are pinned here too. Through the proxy and
// `gateTransport` over the real SDK Client; an ordinary PNG beside the refusal is handed on untouched.
import sharp from 'sharp';
import { afterEach, describe, expect, test } from 'vitest';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { told } from './round-cases.ts';

afterEach(closeAll);

const local = 'file:///home/jos\u00e9/.aws/credentials';
const localPath = `home/jos\u00e9/.aws/credentials`;
const greek = '\u0397 \u03b4\u03b9\u03b5\u03cd\u03b8\u03c5\u03bd\u03c3\u03b7 \u03b5\u03af\u03bd\u03b1\u03b9 ';

const resource = (blob: Buffer, mimeType: string) => ({
  type: 'resource',
  resource: { uri: 'rt://notes.txt', mimeType, blob: blob.toString('base64') },
});

/** A refused link and, beside it, an embedded text blob naming `uri`'s address, in the encodings a host decodes. */
const cases: [string, string, Record<string, unknown>][] = [
  ['UTF-16LE with a byte order mark', metadata, resource(Buffer.from(`\ufeff${told}`, 'utf16le'), 'text/plain')],
  [
    'UTF-16BE with a byte order mark',
    metadata,
    resource(Buffer.from(`\ufeff${told}`, 'utf16le').swap16(), 'text/plain'),
  ],
  ['UTF-16LE without a byte order mark', metadata, resource(Buffer.from(told, 'utf16le'), 'text/plain')],
  [
    'UTF-16LE without a byte order mark, a base64 string in structuredContent',
    metadata,
    { structured: { note: Buffer.from(told, 'utf16le').toString('base64') } },
  ],
  [
    'latin-1 naming a latin-1 address, a base64 string in structuredContent',
    local,
    { structured: { note: Buffer.from(`see ${local}`, 'latin1').toString('base64') } },
  ],
  [
    'UTF-16BE declared by its charset',
    metadata,
    resource(Buffer.from(told, 'utf16le').swap16(), 'text/plain; charset=utf-16be'),
  ],
  [
    'latin-1, the address holding a latin-1 letter',
    local,
    resource(Buffer.from(`see ${local}`, 'latin1'), 'text/plain; charset=ISO-8859-1'),
  ],
  [
    'a Greek text in ISO-8859-7',
    metadata,
    resource(Buffer.from(isoGreek(`${greek.repeat(8)}${metadata}`)), 'text/plain; charset="iso-8859-7"'),
  ],
];

// `text` in ISO-8859-7: Greek letters U+0386–U+03CE are the bytes 0xB6–0xFE, ASCII as itself
function isoGreek(text: string): number[] {
  return [...text].map((c) => {
    const code = c.codePointAt(0) ?? 0;
    if (code < 0x80) return code;
    if (code >= 0x386 && code <= 0x3ce) return code - 0x386 + 0xb6;
    throw new Error(`not in ISO-8859-7: ${c}`);
  });
}

for (const [front, start] of fronts)
  describe(`a text blob beside a refused link, in the encodings a host decodes, through the ${front}`, () => {
    for (const [label, uri, item] of cases)
      test(`${label}: the blob is not handed on`, async () => {
        const f = await start();
        const structured = item['structured'] as Record<string, string> | undefined;
        const content = structured === undefined ? [link(uri, 'creds'), item] : [link(uri, 'creds')];
        const blob = structured?.['note'] ?? (item['resource'] as { blob: string }).blob;
        const result = structured === undefined ? { content } : { content, structuredContent: structured };
        const json = JSON.stringify(await callWith(f, { result }));
        expect(json).toContain('linkgate refused the link');
        expect(json).not.toContain(blob);
        const got = await f.got();
        expect(got).not.toContain(blob);
        expect(got).not.toContain(uri === metadata ? hostPath : localPath);
      });

    test('an ordinary PNG beside the refusal is handed on as it is', async () => {
      const side = 96;
      const pixels = Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => (i * 7919) % 251));
      const png = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
        .png()
        .toBuffer();
      const blob = png.toString('base64');
      const f = await start();
      const answer = await callWith(f, {
        result: {
          content: [
            link(metadata, 'creds'),
            { type: 'resource', resource: { uri: 'rt://photo.png', mimeType: 'image/png', blob } },
            { type: 'image', data: blob, mimeType: 'image/png' },
          ],
        },
      });
      const json = JSON.stringify(answer);
      expect(json).toContain('linkgate refused the link');
      expect(json.split(blob).length - 1).toBe(2);
    });
  });
