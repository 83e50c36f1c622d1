import { describe, expect, test } from 'vitest';
import { deflateSync } from 'node:zlib';
import { sniffContent, sniffContentSync } from '../../src/content/sniff-content.ts';
import * as make from '../fixtures/make-bytes.ts';

const text = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('sniffContent: real kinds', () => {
  test.each([
    ['empty', Buffer.alloc(0), 'empty'],
    ['png', make.makePng(), 'png'],
    ['apng is a png with animation', make.makePng({ apng: true }), 'apng'],
    ['jpeg', make.makeJpeg(), 'jpeg'],
    ['gif', make.makeGif(), 'gif'],
    ['webp', make.makeWebp(), 'webp'],
    ['bmp', make.makeBmp(), 'bmp'],
    ['avif', make.makeAvif(), 'avif'],
    ['pdf', make.makePdf(), 'pdf'],
    ['zip', make.makeZip([{ name: 'a', data: 'b' }]), 'zip'],
    ['gzip', make.makeGzip(), 'gzip'],
    ['docx', make.makeOoxml(), 'docx'],
    ['word 97 document', make.makeCfb({ names: ['WordDocument'] }), 'doc'],
    ['plain text', text('hello world\n'), 'text'],
    ['json', text('{"a": 1}'), 'json'],
    ['svg', text('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'svg'],
    ['xml', text('<?xml version="1.0"?><doc/>'), 'xml'],
    ['html document', text('<!DOCTYPE html><title>x</title>'), 'html'],
    ['utf-16 text with a bom', make.utf16('hello'), 'text'],
    ['unknown binary', make.seededBytes(512), 'unknown'],
    // short magic prefixes do not turn printable text into binaries (file-type calls these exe, bmp and ps)
    ['text starting MZ', text('MZ-80K restoration log\nday 1\n'), 'text'],
    ['text starting BM', text('BM25 ranking notes\n'), 'text'],
    ['text starting %!', text('%! a note, not postscript\n'), 'text'],
    ['text starting GIF8', text('GIF89a is an image format, said the notes\n'), 'text'],
  ])('%s → %s', async (_, bytes, kind) => {
    expect((await sniffContent(bytes)).kind).toBe(kind);
  });
});

describe('sniffContent: executable and active content', () => {
  test.each([
    ['pe', make.makePe(), /windows pe/],
    ['elf', make.makeElf(), /elf executable/],
    ['mach-o', make.makeMacho(), /mach-o/],
    ['java class', make.makeJavaClass(), /java class/],
    ['wasm', make.makeWasm(), /webassembly/],
    ['lnk', make.makeLnk(), /shortcut/],
    ['crx', make.makeCrx(), /chrome extension/],
    ['deb', make.makeDeb(), /debian package/],
    ['jar', make.makeJar(), /java archive/],
    ['apk', make.makeApk(), /android package/],
    ['browser extension', make.makeWebExtension(), /browser extension/],
    ['msi', make.makeCfb({ names: ['x'], rootClsid: make.msiClsid }), /installer/],
    ['doc with macros', make.makeCfb({ names: ['WordDocument', 'Macros', 'VBA'] }), /vba project/],
    ['docm with vbaProject.bin', make.makeOoxml({ macroEnabled: true, vbaProject: true }), /vba project/],
    ['shebang script', text('#!/bin/sh\necho hi\n'), /shebang/],
    [
      'shebang script with binary payload',
      Buffer.concat([text('#!/bin/sh\nexit 0\n'), make.seededBytes(64)]),
      /shebang/,
    ],
    ['registry import (ascii)', text('REGEDIT4\r\n\r\n[HKEY_CURRENT_USER\\x]\r\n'), /registry/],
    ['registry import (utf-16le with bom)', make.utf16('Windows Registry Editor Version 5.00\r\n'), /registry/],
    ['postscript', text('%!PS-Adobe-3.0\n/Helvetica findfont\n'), /postscript/],
    ['hta', text('<html><head><HTA:APPLICATION ID="a"/></head></html>'), /hta/],
    ['html with script behind a bom', make.utf8Bom('<script>alert(1)</script>'), /`<script>`/],
    ['event handler in text', text('notes\n<img src=x onerror="alert(1)">\n'), /`onerror`/],
    ['svg with script', text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), /`<script>`/],
    [
      'svg with entity-encoded javascript:',
      text('<svg><a href="jav&#x61;script:alert(1)"><rect/></a></svg>'),
      /javascript/,
    ],
    ['pdf with javascript', make.makePdf({ activeName: 'JavaScript' }), /`\/JavaScript`/],
    ['pdf with escaped launch', make.makePdf({ activeName: 'Launch', escapeName: true }), /`\/Launch`/],
    [
      'pdf with javascript in an object stream',
      make.makePdf({ activeName: 'JS', inObjectStream: true }),
      /compressed stream/,
    ],
    ['png + jar polyglot', Buffer.concat([make.makePng(), make.makeJar()]), /polyglot/],
    ['gif + zip polyglot', Buffer.concat([make.makeGif(), make.makeZip([{ name: 'a', data: 'b' }])]), /polyglot/],
    [
      'jpeg + html after its end',
      Buffer.concat([make.makeJpeg(), text('<script>alert(1)</script>')]),
      /after the end of the jpeg/,
    ],
    ['png + elf after its end', Buffer.concat([make.makePng(), make.makeElf()]), /`elf` data after the end/],
    ['pdf + zip', Buffer.concat([make.makePdf(), make.makeZip([{ name: 'a', data: 'b' }])]), /polyglot/],
  ])('%s', async (_, bytes, message) => {
    expect((await sniffContent(bytes)).active).toMatch(message);
  });

  test.each([
    ['json holding markup in a string', text('{"comment":"<script>alert(1)</script>"}')],
    ['clean svg', text('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>')],
    ['clean pdf', make.makePdf()],
    ['docm without a vba part', make.makeOoxml({ macroEnabled: true })],
    ['png with zero padding after its end', Buffer.concat([make.makePng(), Buffer.alloc(32)])],
    ['markdown', text('# notes\n\n* one\n* two\n')],
  ])('%s is not active', async (_, bytes) => {
    expect((await sniffContent(bytes)).active).toBeNull();
  });
});

describe('sniffContent: unsafe text and uninterpretable bytes', () => {
  test.each([
    ['terminal escapes', text('ok\u001b]52;c;ZWNobw==\u0007'), /terminal escape/],
    ['nul bytes in text', text('abc\u0000def'), /nul/],
    ['utf-16 without a bom', make.utf16('plain ascii words here', { bom: false }), /without a byte order mark/],
  ])('%s', async (_, bytes, message) => {
    expect((await sniffContent(bytes)).unsafe.join('; ')).toMatch(message);
  });

  test('lone surrogates of a text carrier are reported', async () => {
    const original = 'a\ud800b';
    expect((await sniffContent(Buffer.from(original, 'utf8'), { text: original })).unsafe.join()).toMatch(/surrogates/);
  });

  test.each([
    ['truncated png', make.makePng({ omitEnd: true }), /truncated png/],
    ['truncated gif', make.makeGif({ omitEnd: true }), /truncated gif/],
    ['encrypted pdf', make.makePdf({ encrypted: true }), /encrypted/],
  ])('%s', async (_, bytes, message) => {
    expect((await sniffContent(bytes)).uninterpretable).toMatch(message);
  });

  test('image dimensions come from the header', async () => {
    const sniff = await sniffContent(make.makePng({ claimWidth: 20_000, claimHeight: 10_000 }));
    expect([sniff.width, sniff.height]).toEqual([20_000, 10_000]);
  });
});

describe('sniffContentSync', () => {
  test.each([
    ['png', make.makePng()],
    ['apng', make.makePng({ apng: true })],
    ['jpeg with html after its end', Buffer.concat([make.makeJpeg(), text('<script>alert(1)</script>')])],
    ['truncated gif', make.makeGif({ omitEnd: true })],
    ['webp', make.makeWebp()],
    ['bmp', make.makeBmp()],
    ['pdf with javascript in an object stream', make.makePdf({ activeName: 'JS', inObjectStream: true })],
    ['jar', make.makeJar()],
    ['doc with macros', make.makeCfb({ names: ['WordDocument', 'Macros', 'VBA'] })],
    ['text', text('hello')],
    ['svg with a handler', text('<svg onload="x"/>')],
    ['utf-16 with a bom', make.utf16('plain words')],
    ['empty', Buffer.alloc(0)],
  ])('answers %s without file-type, exactly as sniffContent', async (_, bytes) => {
    const quick = sniffContentSync(bytes);
    expect(quick).not.toBeNull();
    expect(quick).toEqual(await sniffContent(bytes));
  });

  test.each([
    ['pe', make.makePe()],
    ['elf', make.makeElf()],
    ['gzip', make.makeGzip()],
    ['avif', make.makeAvif()],
    ['unknown binary', make.seededBytes(512)],
    ['png with an elf after its end', Buffer.concat([make.makePng(), make.makeElf()])],
    [
      'utf-16 without a bom (it holds nuls, so binary formats are asked first)',
      make.utf16('plain ascii words here', { bom: false }),
    ],
  ])('leaves %s to sniffContent (file-type must be asked)', (_, bytes) => {
    expect(sniffContentSync(bytes)).toBeNull();
  });
});

describe('sniffContent: hostile inputs stay bounded', () => {
  test('deeply nested json is json, decided without building it', async () => {
    expect((await sniffContent(text(`${'['.repeat(300_000)}${']'.repeat(300_000)}`))).kind).toBe('json');
  });

  test('a pdf with more compressed streams than the cap is uninterpretable, not inspected to the end', async () => {
    const data = deflateSync(Buffer.from('x'));
    const parts = [Buffer.from('%PDF-1.7\n', 'latin1')];
    for (let i = 0; i < 10_050; i++)
      parts.push(
        Buffer.from(`<</Filter/FlateDecode>>stream\n`, 'latin1'),
        data,
        Buffer.from('\nendstream\n', 'latin1'),
      );
    parts.push(Buffer.from('%%EOF\n', 'latin1'));
    const sniff = await sniffContent(Buffer.concat(parts));
    expect(sniff.kind).toBe('pdf');
    expect(sniff.active).toBeNull();
    expect(sniff.uninterpretable).toMatch(/more than 10000 compressed streams/);
  });
});
