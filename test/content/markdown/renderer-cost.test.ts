// The renderers' superlinear work is charged to the item's budget before they run (markdown-cost.ts): each
// family of pathological input the round found (micromark's attention and strikethrough resolution, marked's
// emphasis scan and autolink parenthesis trimming, unclosed and closed link labels, tags left open) ends in
// `content.too-complex` after work linear in its size: the charge runs out before any renderer is charged a moment of
// its time (only the screen and the cutting in front of them are), so no renderer ran (counted, not timed); real READMEs (the markdown files of the benign corpus and of
// this project's dependencies) are charged a small fraction of what their budget allows.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { pairingSteps } from '../../../src/content/markdown/markdown-cost.ts';
import { planCharges } from '../../../src/content/markdown/active-markdown.ts';
import { sniffContent } from '../../../src/content/sniff-content.ts';
import { defaultStepsPerByte, WorkBudget } from '../../../src/content/work-budget.ts';
import { decideItem } from '../decide-item.ts';

// a first line the screen in front of the renderers lets through (a `style` attribute in a tag, inert: plain css),
// then the family's run in the same part (read on its own after a blank line, an inert run is not rendered at all)
const screened = 'the <kbd style="color: teal"> attribute\n';
const families: readonly [string, (n: number) => string][] = [
  ['emphasis of both kinds (micromark attention, marked emphasis)', (n) => '_a*'.repeat(n / 3)],
  ['emphasis with spaces', (n) => '*a '.repeat(n / 3)],
  ['strikethrough', (n) => '~a '.repeat(n / 3)],
  ['mixed delimiters', (n) => '*_~'.repeat(n / 3)],
  ['unclosed link labels', (n) => '[a'.repeat(n / 2)],
  ['autolink parentheses', (n) => `www.example.com/${'()'.repeat(n / 2)}`],
  ['nested parentheses in a destination', (n) => `[a](${'('.repeat(n / 2)}${')'.repeat(n / 2)})`],
  // micromark's label ends and failed html attempts (these two were in active-markup.test.ts's one-pass table)
  ['references spelling most of a scheme, again and again', (n) => '](&#x6A;&#x61;&#x76;&#x61;'.repeat(n / 26)],
  // micromark walks back over every label start for each `]`, closed labels too
  ['closed labels', (n) => 'a[b]'.repeat(n / 4)],
  // a tag that may continue on the next line is tried again at each line
  ['tags left open at each line end', (n) => '<a\n'.repeat(n / 3)],
];

// linear in every renderer (measured: four times the text, under twice the time), but slow: a large enough run is
// withheld by the renderers' measured time, charged before they run
const linearFamilies: readonly [string, (n: number) => string][] = [
  ['tags full of references', (n) => '<a =&#1;&>'.repeat(n / 10)],
  ['generic types', (n) => 'Array<Map<string, number>> | '.repeat(n / 30)],
  ['comment blocks', (n) => '    /**\n     * text (see `x`)\n     */\n'.repeat(n / 38)],
];

// the sniff's verdict, and the parser time its budget was charged (calibrated ns: nothing when no parser ran)
async function judged(body: string): Promise<{ parserNanos: number; tooComplex: string | null }> {
  const bytes = Buffer.from(body, 'utf8');
  const budget = WorkBudget.forBytes(bytes.length);
  const { tooComplex } = await sniffContent(bytes, { declaredMime: 'text/markdown', budget });
  return { parserNanos: budget.timeSpent, tooComplex };
}

describe('pathological markdown runs out of budget after linear work', () => {
  test.each(families)('%s', async (_name, make) => {
    const small = screened + make(30_000);
    const large = screened + make(300_000);
    for (const body of [small, large]) {
      const run = await judged(body);
      expect(run.tooComplex).toMatch(/more work than its size allows \(markdown\)/);
      // the screen and the cutting in front of the renderers ran, and were charged; no renderer was
      const { screen, parts } = planCharges(body);
      expect(run.parserNanos).toBe(screen + parts);
    }
    const verdict = await decideItem(Buffer.from(large, 'utf8'), 'text/markdown');
    expect(verdict.effect).toBe('partial');
    expect(verdict.codes).toContain('content.too-complex');
  });
});

describe("linear markdown is judged, and withheld only past the renderers' time", () => {
  test.each(linearFamilies)('%s', async (_name, make) => {
    // 15 KB takes the renderers a fraction of a second: judged, not too complex (30 KB of comment blocks, 2 368 short
    // lines, took them 0.36 s of CPU time on the loaded machine: their lines, not their characters, are the cost)
    expect((await judged(screened + make(15_000))).tooComplex).toBeNull();
    // 1 MB takes micromark alone seconds: withheld by the parser-time bound before any renderer runs
    expect((await judged(screened + make(1_000_000))).tooComplex).toMatch(/parser time/);
  });
});

describe('the charge', () => {
  it('is per run of lines between blank lines and bullet items, CR LF one line ending', () => {
    // the label's two brackets pair across the run; each emphasis run reaches its partner two characters away
    // (opener forward, closer back: 4 pairs a kind); parentheses off a link destination are not paired
    const paragraph = '*a* _b_ (c) [d]';
    expect(pairingSteps(paragraph)).toBe(Math.ceil((paragraph.length * 2 + 8) / 16));
    expect(pairingSteps(`${paragraph}\n\n${paragraph}`)).toBeLessThan(pairingSteps(`${paragraph}\n${paragraph}`));
    expect(pairingSteps(`- ${paragraph}\n- ${paragraph}`)).toBeLessThan(pairingSteps(`${paragraph}\n${paragraph}`));
    // a bullet indented four spaces continues the paragraph (it is not an item), an empty bullet starts none
    expect(pairingSteps(`${paragraph}\n    - ${paragraph}`)).toBe(pairingSteps(`${paragraph}\n    x ${paragraph}`));
    const crlf = pairingSteps(`${paragraph}\r\n${paragraph}`);
    expect(crlf).toBeGreaterThanOrEqual(pairingSteps(`${paragraph}\n${paragraph}`));
    expect(crlf).toBeGreaterThan(pairingSteps(`${paragraph}\r\n\r\n${paragraph}`));
  });

  it('a GFM table is charged per row, only where every table-reading renderer sees a table', () => {
    const row = '| *a* | _b_ (c) [d] |';
    const rows = Array.from({ length: 50 }, () => row).join('\n');
    const table = pairingSteps(`| h | i |\n| --- | :-: |\n${rows}`);
    const paragraph = pairingSteps(`| h | i |\n| - - - | x |\n${rows}`);
    expect(table * 10).toBeLessThan(paragraph);
    // a header that ends a paragraph, a header with a different cell count: read as a paragraph, charged as one
    expect(pairingSteps(`text\n| h | i |\n| --- | --- |\n${rows}`)).toBeGreaterThan(table * 10);
    expect(pairingSteps(`| h | i | j |\n| --- | --- |\n${rows}`)).toBeGreaterThan(table * 10);
    // a row that starts a block quote ends the table: its lazy lines are one paragraph again
    expect(pairingSteps(`| h | i |\n| --- | --- |\n> ${rows}`)).toBeGreaterThan(table * 10);
  });

  it('an HTML block that runs to a blank line holds no inline text; html inside a paragraph is charged', () => {
    const cells = Array.from({ length: 200 }, () => '<td><a href="x"><img src="y"/>[a]</a></td>').join('\n');
    const block = pairingSteps(`<!-- list -->\n<table>\n${cells}\n</table>`);
    expect(block).toBe(0);
    // the same lines after a paragraph line: a renderer may read them as inline html of that paragraph
    expect(pairingSteps(`text\n<table>\n${cells}\n</table>`)).toBeGreaterThan(10_000);
    // a tab after the tag name: not a block start to marked
    expect(pairingSteps(`<table\t>\n${cells}`)).toBeGreaterThan(10_000);
  });

  it('pairs only what a renderer may pair: flanking emphasis, open tags, destination parentheses', () => {
    const run = (line: string): number => pairingSteps(Array.from({ length: 100 }, () => line).join('\n'));
    // a comment block's ` * ` and `a * b` neither open nor close emphasis; `*a` and `a*` do
    expect(run('     * text * more')).toBe(0);
    expect(run('     *text more*')).toBeGreaterThan(0);
    // intraword and spaced underscores and tildes the same way
    expect(run('snake_case ~ x')).toBeGreaterThan(0);
    expect(run('a _ b ~ c')).toBe(0);
    // a tag that ends on its line is tried once; one left open at the line end, a comment or declaration, runs on
    expect(run('Array<Map<string, number>>')).toBe(0);
    expect(run('text <a href')).toBeGreaterThan(0);
    expect(run('text <!-- a -->')).toBeGreaterThan(0);
    // parentheses of a call are not a destination; after `](` or in an autolink literal they are balanced
    expect(run('f(a, g(b))')).toBe(0);
    expect(run('[f](a(b))')).toBeGreaterThan(run('[f] a(b)'));
    expect(run('see www.x.org/(a)')).toBeGreaterThan(0);
    expect(run('see https://x.org/(a)')).toBeGreaterThan(0);
  });

  it('real READMEs are charged at most a quarter of their per-byte budget', () => {
    const repoRoot = path.resolve(import.meta.dirname, '../../..');
    const dirs = [path.resolve(repoRoot, '../shared/corpus/benign'), path.join(repoRoot, 'node_modules')];
    const files: string[] = [];
    for (const dir of dirs) {
      try {
        for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
          if (/(^|\/)readme\.md$|\.md$/i.test(entry) && !entry.includes('/test')) files.push(path.join(dir, entry));
      } catch {
        // a corpus that is not here (outside CI) is read from the other place
      }
    }
    expect(files.length).toBeGreaterThan(50);
    let worst = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (text.length > 1000) worst = Math.max(worst, pairingSteps(text) / text.length);
    }
    expect(worst).toBeLessThan(defaultStepsPerByte / 4);
  });
});
