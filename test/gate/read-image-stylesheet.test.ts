// An image a sniffing host reads whole as a page loads a stylesheet from elsewhere by itself when its bytes (metadata,
// pixels, data after the end) hold an off-origin `<link rel="stylesheet">` or a `<style>` `@import`: the read is
// withheld as `content.remote-load`, as the same markup sent as a page is (round 10, the round's findings in its session's closing note:
// png-text-stylesheet, bmp-pixels-stylesheet, png-text-import; Chromium is the oracle in
// test/content/redteam/round10-browser.test.ts). A stylesheet of the page's own origin, a `<style>` without an
// `@import`, and a tag name that only starts with `style` or `link` load nothing.
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { decideReadDetailed } from '../../src/gate/decide-read.ts';
import type { ReadInput } from '../../src/gate/inputs.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { makeBmp, makePng } from '../fixtures/make-bytes.ts';

const policy = await loadPolicy(path.resolve(import.meta.dirname, '../../policies/default.yaml'));
const uri = 'guide://media/photo';

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}
// a png with `chunks` before its IEND
function pngWith(...chunks: Buffer[]): Buffer {
  const png = makePng();
  return Buffer.concat([png.subarray(0, png.length - 12), ...chunks, png.subarray(png.length - 12)]);
}
const withText = (markup: string): Buffer => pngWith(chunk('tEXt', Buffer.from(`Comment\0${markup}`, 'latin1')));
function bmpWithPixels(markup: string): Buffer {
  const bmp = makeBmp({ width: 64, height: 4 });
  Buffer.from(markup, 'latin1').copy(bmp, 54 + 8);
  return bmp;
}

async function verdict(bytes: Buffer, mimeType: string | undefined): Promise<{ effect: string; codes: string[] }> {
  const item = { uri, blob: bytes.toString('base64'), ...(mimeType === undefined ? {} : { mimeType }) };
  const input: ReadInput = {
    stage: 'read',
    link: { type: 'resource_link', uri, name: 'photo' },
    result: { contents: [item] },
  };
  const { decision } = await decideReadDetailed(policy, input);
  return { effect: decision.effect, codes: decision.reasons.map((r) => r.code) };
}

describe('an image read as a page that loads a stylesheet from elsewhere', () => {
  test.each([
    ['png-text-stylesheet', withText('<link rel=stylesheet href=http://evil.test/x.css>'), 'image/png'],
    ['bmp-pixels-stylesheet', bmpWithPixels('<link rel=stylesheet href=//evil.test/x.css>'), 'image/bmp'],
    ['png-text-import', withText('<style>@import "http://evil.test/x.css";</style>'), 'image/png'],
    ['upper case, a slash after the name', withText('<LINK/rel="Stylesheet"/href="//evil.test/x.css">'), 'image/png'],
    ['a `<style>` in svg markup', withText('<svg><StYlE>@import url(//evil.test/x.css)</StYlE></svg>'), 'image/png'],
    [
      // past the first 64 KiB the sites pass reads (a filler with no markup: random bytes may open a quote or a comment
      // that swallows the tag, for the browser and parse5 alike)
      'in pixel data, after 64 KiB of other pixels',
      pngWith(
        chunk(
          'IDAT',
          Buffer.concat([Buffer.alloc(65_536, 0x7f), Buffer.from('<link rel=stylesheet href=//e.test/a>')]),
        ),
      ),
      'image/png',
    ],
    [
      'after the end of the image',
      Buffer.concat([makePng(), Buffer.from('<style>@import "//e.test/a";</style>')]),
      undefined,
    ],
  ])('%s is withheld as a remote load, declared or not', async (_, bytes, mimeType) => {
    for (const declared of [mimeType, undefined]) {
      const { effect, codes } = await verdict(bytes, declared);
      expect(effect).toBe('deny');
      expect(codes.some((c) => c === 'content.remote-load' || c === 'content.executable')).toBe(true);
    }
  });

  test.each([
    ['a stylesheet of the page’s own origin', withText('<link rel=stylesheet href=x.css>')],
    ['a `<style>` without an `@import`', withText('<style>p { color: red }</style>')],
    ['a tag name that only starts with `style`', withText('<styles>@import "//evil.test/x.css";</styles>')],
    ['a tag name that only starts with `link`', withText('<links rel=stylesheet href=//evil.test/x.css>')],
    ['a name cut by the end of the bytes', Buffer.concat([makePng(), Buffer.from('<style')])],
  ])('%s is allowed', async (_, bytes) => {
    expect(await verdict(bytes, 'image/png')).toEqual({ effect: 'allow', codes: [] });
  });
});
