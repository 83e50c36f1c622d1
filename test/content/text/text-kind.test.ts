import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { classifyText } from '../../../src/content/text/text-kind.ts';

describe('classifyText', () => {
  test.each([
    ['#!/bin/sh\necho hi\n', 'shell-script'],
    ['#!/usr/bin/env python3\nprint(1)\n', 'shell-script'],
    ['REGEDIT4\r\n\r\n[HKEY_CURRENT_USER\\x]\r\n', 'reg'],
    ['Windows Registry Editor Version 5.00\r\n', 'reg'],
    ['%!PS-Adobe-3.0\n/Courier findfont\n', 'postscript'],
    ['%PDF-1.4\n1 0 obj\n', 'pdf'],
    ['{\\rtf1\\ansi hello}', 'rtf'],
    ['{"a": "<script>alert(1)</script>"}', 'json'],
    ['[1, 2, 3]', 'json'],
    ['<svg xmlns="http://www.w3.org/2000/svg"/>', 'svg'],
    ['<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg/>', 'svg'],
    ['<!doctype html><p>x', 'html'],
    ['  <html><body>x</body></html>', 'html'],
    ['<?xml version="1.0"?><doc/>', 'xml'],
    ['<html><head><HTA:APPLICATION ID="x"/></head></html>', 'hta'],
    ['MZ-80K restoration log\n', 'text'],
    ['BM25 ranking notes\n', 'text'],
    ['%! not postscript, a note\n', 'text'],
    ['{ not json', 'text'],
    ['<div align="center">readme</div>', 'text'],
    ['# title\n\nmarkdown', 'text'],
    ['\n\n#!/bin/sh\nrm -rf ~\n', 'shell-script'],
    ['   #!/usr/bin/env python3\n', 'shell-script'],
    ['#! is called a shebang\n', 'shell-script'],
    ['  #! is called a shebang\n', 'text'],
  ])('%j → %s', (text, kind) => {
    expect(classifyText(text)).toBe(kind);
  });
});

describe('classifyText searches the whole text as bytes', () => {
  const piece = fc.constantFrom(
    '[InternetShortcut]',
    '[internetshortcut]',
    '[INTERNETSHORTCUT]',
    '[Internet Shortcut]',
    '<hta:application',
    '<HTA:Application',
    '<hta:applications',
    'hta:application',
    '[',
    ']',
    ' ',
    '\t',
    '\n',
    '\r',
    '\r\n',
    '\u2028',
    '\u2029',
    '\u2027',
    'x',
    'é',
    '行',
    '_',
    '>',
    '=',
  );
  test('a shortcut section on its own line, or an hta element, wherever it lies (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        // a leading letter keeps the head from starting a format of its own
        const text = `x${parts.join('')}`;
        const expected = /^[ \t]*\[InternetShortcut\][ \t]*\r?$/im.test(text)
          ? 'url-shortcut'
          : /<hta:application\b/i.test(text)
            ? 'hta'
            : 'text';
        expect(classifyText(text)).toBe(expected);
        expect(classifyText(`${'y'.repeat(40_000)}\n${text}`)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
