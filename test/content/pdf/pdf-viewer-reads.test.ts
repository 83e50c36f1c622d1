// PDFs whose OpenAction JavaScript pdf.js runs, written the ways a scanner that does not lex as pdf.js does missed
// (issue 23): object-stream dictionaries whose `<<`/`>>` count a string or comment breaks, `stream` keywords
// followed by a comment, form feed or NUL before the end of line, object headers whose generation is written
// `-0`, `+0` or `0.0`. Every variant is first read by pdf.js (the oracle: it must find the script), then judged
// under policies/default.yaml.
import { describe, expect, test } from 'vitest';
import { scanPdf } from '../../../src/content/pdf/pdf-active.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';
import { decideItem } from '../decide-item.ts';
import { type ObjStmShape, openActionScript, pdfWithHiddenOpenAction } from './make-pdf-variants.ts';
import { pdfJsOpenScripts } from './pdfjs-oracle.ts';

const variants: [string, ObjStmShape][] = [
  ['a `(<<)` string in the object stream dictionary', { dictTail: ' /X (<<)' }],
  ['a `(a<<b)` string after a nested one', { dictTail: ' /X ((x) a<<b)' }],
  ['an escaped parenthesis before `<<` in a string', { dictTail: ' /X (\\) <<)' }],
  ['a `% <<` comment in the dictionary', { dictTail: ' % <<\n' }],
  ['a `%<<<<` comment ending in CR', { dictTail: ' %<<<<\r' }],
  ['`stream` followed by a comment', { afterKeyword: ' % data follows\n' }],
  ['`stream` followed by `%` and CR LF', { afterKeyword: '%\r\n' }],
  ['`stream` followed by a form feed', { afterKeyword: '\f\n' }],
  ['`stream` followed by a NUL', { afterKeyword: '\0\n' }],
  ['`stream` followed by a form feed and CR', { afterKeyword: '\f\r' }],
  ['a `5 -0 obj` header inside image data', { generation: '-0', insideImage: true }],
  ['a `5 +0 obj` header inside image data', { generation: '+0', insideImage: true }],
  ['a `5 0.0 obj` header inside image data', { generation: '0.0', insideImage: true }],
  ['a `5 -- obj` header inside image data', { generation: '--', insideImage: true }],
  ['a `5 . obj` header inside image data', { generation: '.', insideImage: true }],
];

describe('pdf: what pdf.js runs is denied, however the object stream is written', () => {
  test.each(variants)('%s', async (_, shape) => {
    const bytes = pdfWithHiddenOpenAction(shape);
    expect(await pdfJsOpenScripts(bytes)).toContain(openActionScript);
    expect(scanPdf(bytes).active).toMatch(/JavaScript/);
    const { effect, codes } = await decideItem(bytes, 'application/pdf');
    expect(effect).toBe('deny');
    expect(codes).toContain('content.executable');
  });

  test('the same pdf without the action is allowed, and pdf.js finds no script in it', async () => {
    const bytes = pdfWithHiddenOpenAction({ dictTail: ' /X (<<)' });
    const inert = Buffer.from(bytes.toString('latin1').replace('/OpenAction 4 0 R', '/PageMode /UseNone'), 'latin1');
    expect(await pdfJsOpenScripts(inert)).toEqual([]);
  });
});

// PDF comment walks: a scanner that walked back over comment lines from every `stream` word cost time quadratic
// in the size (9.5 MiB: 18.7 s). The forward lexer looks at each byte a bounded number of times.
describe('pdf: the scan is linear in the bytes', () => {
  const families: [string, (n: number) => string][] = [
    ['`stream` words on comment lines', (n) => '%stream\n'.repeat(n / 8)],
    ['`stream` words after text lines without `%`', (n) => 'x\nstream\n'.repeat(n / 9)],
    ['long comment lines ending in `stream`', (n) => `%${'y'.repeat(247)}stream\n`.repeat(n / 256)],
    ['`>>` then comment lines, then `stream`', (n) => `>>\n${'% c\n'.repeat(62)}stream\n`.repeat(n / 258)],
    ['strings that start like a script scheme', (n) => '(javascrip'.repeat(n / 10)],
    ['strings of spaces before a scheme', (n) => `(${' '.repeat(60)}java`.repeat(n / 65)],
    ['hex strings that start like a script scheme', (n) => '<6a61766173637269'.repeat(n / 17)],
    ['`/URI` keys before strings', (n) => '/URI (javascrip'.repeat(n / 15)],
    ['hex strings of bytes a hex string skips', (n) => `<${'z'.repeat(60)}`.repeat(n / 61)],
  ];
  test.each(families)('%s: work per byte does not grow with the size', (_, body) => {
    const perByte = [1 << 16, 1 << 20].map((n) => {
      const bytes = Buffer.from(`%PDF-1.4\n${body(n)}%%EOF\n`, 'latin1');
      const budget = WorkBudget.unlimited();
      scanPdf(bytes, undefined, undefined, budget);
      return budget.spent / bytes.length;
    });
    expect(perByte[1]).toBeLessThanOrEqual((perByte[0] ?? 0) * 1.1);
    expect(perByte[1]).toBeLessThan(16);
  });
});
