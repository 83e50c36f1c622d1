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
    ['c1 osc', 'x\u009d52;c;ZWNobw==\u009c', [/c1 control/]],
    ['c1 reverse index (writes over the line above)', 'shown\nhidden\u008d', [/c1 control/]],
    ['c1 decid (the terminal answers into its input)', 'x\u009a', [/c1 control/]],
    // a line break and a no-op to every terminal: a NEL in a bundled YAML escaper, a stray U+0083 in a translation
    ['c1 next line', 'N: "\u0085"', []],
    ['c1 no break here', 'Rozpoznawanie \u0083„{0}”', []],
    ['bell', 'ding\u0007', [/control characters a terminal acts on/]],
    ['form feed', 'page\u000cbreak', [/control characters a terminal acts on/]],
    [
      'backspace (writes over the character before)',
      'rm -rf ~/x\u0008\u0008',
      [/control characters a terminal acts on/],
    ],
    ['shift out (the linux console draws line graphics)', 'x\u000eqqq', [/control characters a terminal acts on/]],
    // no terminal acts on these: fast-check's terminator table, ETX as a key in rolldown's prompt key map
    ['record separator and nak as data', 'const terminatorChars = [..."\u001e\u0015"];', []],
    ['etx as a key', '["\u0003", "cancel"]', []],
    // DEL is inert (issue 23): terminals and renderers ignore it
    ['delete', 'x\u007f', []],
    ['delete runs in csv fields', 'a,b\u007f\u007f,c\n1,2,\u007f\n', []],
  ])('%s', (_, text, expected) => {
    const found = findUnsafeText(text);
    expect(found).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(found[i]).toMatch(pattern));
  });
});
