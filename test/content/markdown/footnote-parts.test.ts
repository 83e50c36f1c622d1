// A live part holding a `[^` is read with the whole text only when the text may define a footnote
// (src/content/markdown/markdown-parts.ts `mayDefineFootnote`): vim's builtin.txt, 418 KB as text/plain, was read
// whole for a regular expression `'[^a-zA-Z]'` in an example, with no footnote definition anywhere in it.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { markdownParts, markdownRuns, mayDefineFootnote } from '../../../src/content/markdown/markdown-parts.ts';
import { liveIn } from './markdown-differential.ts';

describe('a `[^` with no footnote definition in the text', () => {
  const prose = 'Plain help text, nothing to render.\n\n'.repeat(200);
  const live = 'Use <kbd style="color: teal">x</kbd> with :let span = matchend(line, \'[^a-zA-Z]\')\n\n';

  test('its live part is read on its own', () => {
    const text = `${prose}${live}${prose}`;
    expect(markdownRuns(text)).toEqual([live]);
    expect(findActiveMarkdown(text)).toBeNull();
    expect(liveIn(text)).toEqual([]);
  });

  test('with a footnote definition elsewhere in the text the whole text is still read', () => {
    for (const definition of ['[^a-zA-Z]: note\n\n', '[^1]: note\n\n', '[^x\\]]: note\n\n']) {
      const text = `${prose}${live}${prose}${definition}`;
      expect(mayDefineFootnote(text)).toBe(true);
      expect(markdownRuns(text)).toEqual([text]);
    }
  });

  test('a footnote whose script is in its definition, referenced from a live part, is found', () => {
    const text = `a[^n] <b style="color: teal">x</b>\n\n${prose}[^n]: <img src=x onerror=alert(1)>\n`;
    expect(markdownParts(text).length).toBeGreaterThan(2);
    expect(liveIn(text).length).toBeGreaterThan(0);
    expect(findActiveMarkdown(text)).not.toBeNull();
  });

  test('mayDefineFootnote against a plain search for every `[^` (a `]:` before the next space, tab or line break)', () => {
    const reference = (text: string): boolean => /\[\^[^ \t\n\r]*?\]:/.test(text);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('[', '^', ']', ':', ' ', '\n', '\t', '\r', 'a', '\\'), { maxLength: 40 }),
        (chars) => {
          const text = chars.join('');
          expect(mayDefineFootnote(text), JSON.stringify(text)).toBe(reference(text));
        },
      ),
      { seed: 20261207, numRuns: 5000 },
    );
  });
});
