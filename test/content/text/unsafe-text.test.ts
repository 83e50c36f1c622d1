import { describe, expect, test } from 'vitest';
import { findUnsafeText } from '../../../src/content/text/unsafe-text.ts';

describe('findUnsafeText', () => {
  test.each([
    ['tab, lf and cr are fine', 'a\tb\nc\r\n', []],
    ['unicode text is fine', 'grüße 😀 — ok', []],
    ['nul', 'a\u0000b', [/nul/]],
    ['csi colour sequence', 'ok \u001b[31mred', [/terminal escape sequences \(csi/]],
    [
      'osc 52 clipboard write',
      'x\u001b]52;c;ZWNobw==\u0007',
      [/terminal escape sequences \(osc/, /control characters/],
    ],
    ['bare esc', 'x\u001bc', [/terminal escape sequences \(esc/]],
    ['c1 csi', 'x\u009b31m', [/c1 control/]],
    ['bell', 'ding\u0007', [/control characters other than tab/]],
    ['form feed', 'page\u000cbreak', [/control characters other than tab/]],
    // DEL is inert (issue 23): terminals and renderers ignore it
    ['delete', 'x\u007f', []],
    ['delete runs in csv fields', 'a,b\u007f\u007f,c\n1,2,\u007f\n', []],
  ])('%s', (_, text, expected) => {
    const found = findUnsafeText(text);
    expect(found).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(found[i]).toMatch(pattern));
  });
});
