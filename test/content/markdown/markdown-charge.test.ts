// What reading markdown charges the item's parser time (issue 41 item 4, the budget measured, not modelled): the
// screen and the cutting in front of the renderers, the renderers and the token read, and the screen in front of
// parse5 over each distinct page they make, each as it runs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  findActiveMarkdown,
  planCharge,
  planCharges,
  planMarkdown,
} from '../../../src/content/markdown/active-markdown.ts';
import { markdownLines } from '../../../src/content/markdown/markdown-cost.ts';
import { markdownRenderers, renderWith } from '../../../src/content/markdown/markdown-renderers.ts';
import { markdownNanosPerChar, screenNanosPerChar } from '../../../src/content/parser-nanos.ts';
import { sniffContent } from '../../../src/content/sniff-content.ts';
import { maxParserNanos, WorkBudget } from '../../../src/content/work-budget.ts';

describe('markdown reading is charged as it runs', () => {
  test('the screens, the cutting, the renderers and the screen over every page', () => {
    // the markdown screen passes an `<iframe>` spelled in a code span; every page escapes it, so parse5 reads none
    const text = 'Write an `<iframe>` tag in the body.\n';
    const plan = planMarkdown(text, WorkBudget.unlimited());
    expect(plan.live).toBe(true);
    const pages = new Set(markdownRenderers.map((renderer) => renderWith(renderer, text)));
    let pageScreens = 0;
    for (const page of pages) pageScreens += screenNanosPerChar * page.length;
    const budget = WorkBudget.unlimited();
    expect(findActiveMarkdown(text, budget)).toBeNull();
    const { screen, parts } = planCharges(text);
    expect(screen).toBeGreaterThan(0);
    expect(parts).toBeGreaterThan(0);
    expect(budget.timeSpent).toBe(screen + parts + planCharge(plan) + pageScreens);
  });

  test('a text the screen keeps from the renderers costs its screen alone', () => {
    const text = 'Plain notes, `options = {}` and a [link](https://example.com).\n';
    const budget = WorkBudget.unlimited();
    expect(findActiveMarkdown(text, budget)).toBeNull();
    expect(budget.timeSpent).toBe(planCharges(text).screen);
    expect(planCharges(text).parts).toBe(0);
  });
});

// the renderers' time grows with lines as well as characters (parser-nanos.ts): a text of short lines was charged by
// its characters alone, a fifth of its cost, and an html block every renderer passes through raw at prose's rate,
// ten to fifty times its cost
describe('markdown is charged by its lines as well as its characters', () => {
  const live = '<kbd style="color: teal">x</kbd>\n';

  test('a run of short lines past the bound by its lines is withheld before any renderer runs', async () => {
    // 21 500 list items: 0.50 s by their characters, which took 3.4 s of CPU time to render
    const body = `${'- a\n'.repeat(21_500)}- ${live}`;
    const plan = planMarkdown(body, WorkBudget.unlimited());
    expect(plan.runs).toEqual([body]);
    expect(markdownNanosPerChar(markdownRenderers) * body.length).toBeLessThan(maxParserNanos);
    expect(planCharge(plan)).toBeGreaterThan(maxParserNanos);
    const budget = WorkBudget.forBytes(body.length);
    const { tooComplex } = await sniffContent(Buffer.from(body), { declaredMime: 'text/markdown', budget });
    expect(tooComplex).toMatch(/more parser time/);
  });

  test('an html block of a contributors table is charged as raw lines, and judged whole', async () => {
    const cell = (i: number): string =>
      `<td align="center"><a href="https://github.com/u${i}"><img src="https://avatars.githubusercontent.com/u/${i}?v=4" width="100px;" alt=""/><br /><sub><b>User ${i}</b></sub></a><br /><a href="#code-u${i}" title="Code">💻</a></td>`;
    const rows = Array.from(
      { length: 300 },
      (_, r) => `<tr>\n${Array.from({ length: 7 }, (_, c) => cell(r * 7 + c)).join('\n')}\n</tr>`,
    );
    const body = `# Contributors\n\n<table>\n${rows.join('\n')}\n</table>\n\n${live}`;
    const plan = planMarkdown(body, WorkBudget.unlimited());
    // charged by its characters, the table was past the bound (2.5 s; the renderers took 53 ms)
    expect(markdownNanosPerChar(markdownRenderers) * body.length).toBeGreaterThan(maxParserNanos);
    expect(planCharge(plan)).toBeLessThan(maxParserNanos / 2);
    const budget = WorkBudget.forBytes(body.length);
    const { tooComplex } = await sniffContent(Buffer.from(body), { declaredMime: 'text/markdown', budget });
    expect(tooComplex).toBeNull();
  });

  test('lines that may be a fence, a list item or a paragraph are charged as inline text', () => {
    expect(markdownLines('<div>\na\n\n- <div>\nb\n')).toEqual({ inline: 2, blank: 1, block: 2, blockChars: 8 });
    // a text holding a fence gets no html-block rate
    expect(markdownLines('```\n\n<div>\na\n```\n').block).toBe(0);
    // an xml declaration and a line of one tag start blocks
    expect(markdownLines('<?xml version="1.0"?>\n<project a="1">\n  <b>c</b>\n').block).toBe(3);
  });
});

// the cutting into parts costs its lines (216–360 ns each measured, parser-nanos.ts): a text of short paragraphs was
// charged by its characters alone (85 ns each), a third of what the cutting took, and 8 MiB of line breaks after one
// live line took 2–3 s of CPU before its charge was counted
describe('the cutting in front of the renderers is charged by its lines, as it reads them', () => {
  const live = '<kbd style="color: teal">x</kbd>\n\n';

  test('short paragraphs are charged at least 250 ns a line cut', () => {
    const body = `${live}${'a\n\n'.repeat(100_000)}`;
    const budget = WorkBudget.unlimited();
    expect(findActiveMarkdown(body, budget)).toBeNull();
    expect(budget.timeSpent).toBeGreaterThan(250 * 200_000);
  });

  test('line breaks past the bound stop the cutting, before any renderer is charged', () => {
    const body = `${live}${'\n'.repeat(2_000_000)}`;
    const budget = WorkBudget.forBytes(body.length);
    let family = '';
    try {
      findActiveMarkdown(body, budget);
    } catch (error) {
      family = (error as { family?: string }).family ?? String(error);
    }
    expect(family).toBe('markdown parts');
  });
});

// the bench's 8 MiB markdown row (bench/content.ts): this project's dependencies' READMEs joined, judged whole within
// the bound; it was withheld as too complex by the screen and cutting charge alone (85 ns a character, 713 ms)
describe('8 MiB of ordinary READMEs', () => {
  test('is judged within the parser-time bound, not withheld as too complex', () => {
    const dir = path.resolve(import.meta.dirname, '../../../node_modules');
    const texts: string[] = [];
    let size = 0;
    for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!/(^|\/)readme\.md$/i.test(entry)) continue;
      const text = readFileSync(path.join(dir, entry), 'utf8');
      if (/<(?:script|iframe|frame|form|object|embed|base|meta)\b|javascript:|\bon\w+\s*=/i.test(text)) continue;
      texts.push(text);
      size += text.length;
      if (size >= 2 * 1024 * 1024) break;
    }
    const all = texts.join('\n\n');
    const body = all.repeat(Math.ceil((8 * 1024 * 1024) / all.length)).slice(0, 8 * 1024 * 1024);
    const budget = new WorkBudget(Number.POSITIVE_INFINITY);
    expect(findActiveMarkdown(body, budget)).toBeNull();
    expect(budget.timeSpent).toBeLessThan(maxParserNanos);
  });
});
