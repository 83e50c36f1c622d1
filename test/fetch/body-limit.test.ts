import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { readCappedBody, trimCutText } from '../../src/fetch/body-limit.ts';

/** A stream of `count` chunks of `size` bytes; `pulled()` says how many chunks were produced. */
function chunkStream(count: number, size: number): { stream: Readable; pulled: () => number } {
  let produced = 0;
  const stream = new Readable({
    read() {
      if (produced === count) this.push(null);
      else this.push(Buffer.alloc(size, produced++ % 251));
    },
  });
  return { stream, pulled: () => produced };
}

describe('reading under a byte cap', () => {
  test.each([
    { count: 4, size: 100, cap: 1000, bytes: 400, truncated: false, end: 'complete' },
    { count: 10, size: 100, cap: 1000, bytes: 1000, truncated: false, end: 'complete' },
    { count: 11, size: 100, cap: 1000, bytes: 1000, truncated: true, end: 'cap' },
    { count: 1, size: 5000, cap: 1000, bytes: 1000, truncated: true, end: 'cap' },
    { count: 0, size: 100, cap: 1, bytes: 0, truncated: false, end: 'complete' },
  ])(
    '$count × $size bytes under a cap of $cap keeps $bytes ($end)',
    async ({ count, size, cap, bytes, truncated, end }) => {
      const { stream } = chunkStream(count, size);
      const body = await readCappedBody(stream, cap, new AbortController().signal);
      expect(body).toMatchObject({ truncated, end });
      expect(body.bytes.length).toBe(bytes);
    },
  );

  test('stops pulling and destroys the stream at the first byte past the cap', async () => {
    const { stream, pulled } = chunkStream(1_000_000, 1024);
    const body = await readCappedBody(stream, 64 * 1024, new AbortController().signal);
    expect(body.truncated).toBe(true);
    expect(stream.destroyed).toBe(true);
    // a stream's read-ahead is bounded by its high-water mark, far below the million chunks it offered
    expect(pulled()).toBeLessThan(200);
  });

  test('keeps the bytes in order', async () => {
    const { stream } = chunkStream(3, 4);
    const body = await readCappedBody(stream, 10, new AbortController().signal);
    expect([...body.bytes]).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
  });
});

describe('ending early', () => {
  test('an abort ends the read and destroys the stream', async () => {
    const stream = new Readable({ read() {} });
    stream.push(Buffer.from('partial'));
    const controller = new AbortController();
    const reading = readCappedBody(stream, 1000, controller.signal);
    // the caller aborts once the read has taken what was there
    stream.once('data', () => controller.abort());
    const body = await reading;
    expect(body.end).toBe('aborted');
    expect(body.bytes.toString()).toBe('partial');
    expect(stream.destroyed).toBe(true);
  });

  test('an already aborted signal reads nothing', async () => {
    const { stream } = chunkStream(2, 10);
    const body = await readCappedBody(stream, 1000, AbortSignal.abort());
    expect(body).toMatchObject({ end: 'aborted', truncated: false });
    expect(body.bytes.length).toBe(0);
  });

  test.each([
    {
      name: 'an error',
      breakIt: (s: Readable) => s.destroy(new Error('ECONNRESET')),
      message: /body read failed: econnreset/,
    },
    {
      name: 'a close without end',
      breakIt: (s: Readable) => s.destroy(),
      message: /connection closed before the body ended/,
    },
  ])('$name ends the read as an error', async ({ breakIt, message }) => {
    const stream = new Readable({ read() {} });
    stream.push(Buffer.from('abc'));
    const reading = readCappedBody(stream, 1000, new AbortController().signal);
    // the stream breaks once the read has taken what was there
    stream.once('data', () => breakIt(stream));
    const body = await reading;
    expect(body.end).toBe('error');
    expect(body.error).toMatch(message);
  });
});

describe('ending a cut body on a character boundary', () => {
  const utf8 = (text: string) => Buffer.from(text, 'utf8');
  const cutAt = (bytes: Buffer, length: number) => bytes.subarray(0, length);
  test.each([
    { name: 'ascii stays whole', bytes: utf8('plain text'), kept: 10 },
    { name: 'a complete 2-byte character stays', bytes: utf8('aé'), kept: 3 },
    { name: 'a 2-byte character cut after its lead byte', bytes: cutAt(utf8('aé'), 2), kept: 1 },
    { name: 'a 3-byte character cut after 2 bytes', bytes: cutAt(utf8('a€'), 3), kept: 1 },
    { name: 'a 3-byte character cut after 1 byte', bytes: cutAt(utf8('a€'), 2), kept: 1 },
    { name: 'a 4-byte character cut after 3 bytes', bytes: cutAt(utf8('a😀'), 4), kept: 1 },
    { name: 'a complete 4-byte character stays', bytes: utf8('a😀'), kept: 5 },
    { name: 'only continuation bytes are not utf-8: kept', bytes: Buffer.from([0x80, 0x80, 0x80, 0x80]), kept: 4 },
    { name: 'an invalid lead byte is not utf-8: kept', bytes: Buffer.from([0x61, 0xff]), kept: 2 },
    {
      name: 'utf-16le with a bom and an odd length loses the odd byte',
      bytes: Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x62]),
      kept: 4,
    },
    { name: 'utf-16be with a bom and an even length stays', bytes: Buffer.from([0xfe, 0xff, 0x00, 0x61]), kept: 4 },
    { name: 'empty stays empty', bytes: Buffer.alloc(0), kept: 0 },
  ])('$name', ({ bytes, kept }) => {
    const trimmed = trimCutText(bytes);
    expect(trimmed.length).toBe(kept);
    expect(trimmed.equals(bytes.subarray(0, kept))).toBe(true);
  });

  test('every cut of multi-byte text decodes as valid utf-8 after trimming', () => {
    const text = utf8('añ€😀b'.repeat(3));
    for (let length = 0; length <= text.length; length++) {
      const trimmed = trimCutText(text.subarray(0, length));
      expect(new TextDecoder('utf-8', { fatal: true }).decode(trimmed)).toBe(
        text.subarray(0, trimmed.length).toString('utf8'),
      );
      expect(length - trimmed.length).toBeLessThanOrEqual(3);
    }
  });
});
