// The screen of a whole markdown text and its cutting share the text's bytes and its two line readings
// (markdown-bytes.ts): counted as lines read and encodings made, not timed. Before, the screen encoded the text and
// read its indented code and html block lines up to twice each, and the cutting encoded it and read them again.
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { planMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { IndentedCodeReader } from '../../../src/content/markdown/indented-code.ts';
import { fencedLines } from '../../../src/content/markdown/fenced-lines.ts';
import { MarkdownBytes } from '../../../src/content/markdown/markdown-bytes.ts';
import { HtmlBlockReader } from '../../../src/content/markdown/raw-html-grammar.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';

// a README with tags the screen reads (an indented `<object>`, a block `<div>`, a tag with a handler) over many lines
const block = [
  '# Title',
  '',
  '    new WeakSet<object>()',
  '',
  '<div align="center">',
  '  <img src="logo.png">',
  '</div>',
  '',
  'Some text with <a href="x" onclick="go()">a link</a>.',
  '',
].join('\n');
const text = block.repeat(50);
const lineCount = text.split('\n').length - 1;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the screen and the cutting share one reading of the text', () => {
  test('the whole text is encoded once and its indented code and html block lines read once each', () => {
    const indentedLines = vi.spyOn(IndentedCodeReader.prototype, 'readLine');
    const blockLines = vi.spyOn(HtmlBlockReader.prototype, 'readLine');
    const encode = vi.spyOn(Buffer, 'from');
    const plan = planMarkdown(text, WorkBudget.unlimited());
    // the text is live (the handler), so it was screened whole and cut
    expect(plan.live).toBe(true);
    expect(plan.runs.length).toBeGreaterThan(0);
    expect(encode.mock.calls.filter((call) => call[0] === text)).toHaveLength(1);
    // the lines of the whole text (the parts' own screens read theirs, each part a text of its own)
    const wholeText = (contexts: unknown[]): number =>
      contexts.filter((reader) => (reader as { bytes: Uint8Array }).bytes.length === text.length).length;
    expect(wholeText(indentedLines.mock.contexts)).toBe(lineCount);
    expect(wholeText(blockLines.mock.contexts)).toBe(lineCount);
  });

  test('lines read before answer as the lines read in the pass do: same flags, same readings', () => {
    const pieces = [
      '\n',
      '\n\n',
      '\r\n',
      '    ',
      '\t',
      '<div>',
      '<pre>',
      '</pre>',
      '<!--',
      '-->',
      '- a',
      '> b',
      'x',
      '```',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (chosen) => {
        const sample = chosen.join('');
        const shared = new MarkdownBytes(sample);
        const bytes = shared.bytes;
        const own = fencedLines(sample, bytes, 4096);
        // the readings made first (as the screen makes them), then handed to the pass
        const made = fencedLines(sample, bytes, 4096, undefined, { indented: shared.indented, blocks: shared.blocks });
        expect(Array.from(made.flags.subarray(0, made.count))).toEqual(Array.from(own.flags.subarray(0, own.count)));
        expect(made.blocks.lines).toBe(own.blocks.lines);
        expect(made.indented.lines).toBe(own.indented.lines);
        for (let at = 0; at <= bytes.length; at++) {
          expect(made.blocks.holds(at)).toBe(own.blocks.holds(at));
          expect(made.indented.holds(at)).toBe(own.indented.holds(at));
        }
      }),
      { numRuns: 200 },
    );
  });
});
