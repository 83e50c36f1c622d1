// A notebook near the parser-time bound is answered (issue 41 item 4): its markdown cells are charged as the
// renderers read them, cell by cell, from the one budget of the item, so a notebook whose cells fit is judged whole
// and one a cell over is withheld as too complex; hitting the bound withholds, never allows, and the answer comes
// either way. The charge of one cell is measured through the same budget code, not written down here.
import { describe, expect, test } from 'vitest';
import { notebookViewerRenderers } from '../../src/content/markdown/markdown-renderers.ts';
import { findActiveNotebook } from '../../src/content/notebook/active-notebook.ts';
import { planCharges } from '../../src/content/markdown/active-markdown.ts';
import { markdownNanosPerChar } from '../../src/content/parser-nanos.ts';
import { maxParserNanos, WorkBudget, WorkExhausted } from '../../src/content/work-budget.ts';
import { decideItem } from './decide-item.ts';

// an ordinary markdown cell that passes the screen in front of the renderers (a `style` attribute in a tag may hold
// script css), so every renderer reads it and parse5 reads their pages
const prose = [
  '## Results\n\n',
  'The `options = {}` object sets **each** run (<kbd style="color: teal">Ctrl+S</kbd>); see [the guide](https://example.com/guide) and _the notes_.\n\n',
  '- one item\n- another, with `code`\n\n',
  '```python\nresult = fit(data, options=opts)\n```\n\n',
].join('');
const cellText = prose.repeat(Math.ceil(2000 / prose.length)).slice(0, 2000);

const markdownCell = (source: string) => ({ cell_type: 'markdown', metadata: {}, source: source.split(/(?<=\n)/) });
const codeCell = (i: number) => ({
  cell_type: 'code',
  execution_count: i,
  metadata: {},
  source: [`total = sum(range(${i}))\n`, 'print(total)\n'],
  outputs: [{ output_type: 'stream', name: 'stdout', text: [`${(i * (i - 1)) / 2}\n`] }],
});

// `count` markdown cells (the last one `last`), each followed by a code cell
function notebook(count: number, last = cellText): Record<string, unknown> {
  const cells: unknown[] = [];
  for (let i = 0; i < count; i++) cells.push(markdownCell(i === count - 1 ? last : cellText), codeCell(i));
  return { nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'python3' } }, cells };
}

const asBytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

// what one cell costs in parser time, as the budget counts it
function chargeOfOneCell(): number {
  const budget = new WorkBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  expect(findActiveNotebook(notebook(1), budget)).toBeNull();
  return budget.timeSpent;
}

describe('a notebook near the parser-time bound', () => {
  const perCell = chargeOfOneCell();
  // the most cells whose charges fit within the bound
  const fitting = Math.floor(maxParserNanos / perCell);

  test('one cell is charged its renderers and parse5 pages, a fraction of the bound', () => {
    expect(perCell).toBeGreaterThan(0);
    expect(fitting).toBeGreaterThan(10);
    // the charge is counted cell by cell: twice the cells, twice the charge
    const budget = new WorkBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
    findActiveNotebook(notebook(2), budget);
    expect(budget.timeSpent).toBe(2 * perCell);
  });

  test('twice the cells that fit are withheld before any parser starts: only the screens and cutting are spent', () => {
    const budget = new WorkBudget(Number.POSITIVE_INFINITY);
    expect(() => findActiveNotebook(notebook(2 * fitting), budget)).toThrow(WorkExhausted);
    const { screen, parts } = planCharges(cellText);
    expect(budget.timeSpent).toBe(2 * fitting * (screen + parts));
  });

  test('a javascript output is found before any parser starts, wherever it stands', () => {
    const cells = notebook(fitting + 1)['cells'] as unknown[];
    cells.push({
      cell_type: 'code',
      metadata: {},
      source: 'x',
      outputs: [{ output_type: 'display_data', metadata: {}, data: { 'application/javascript': 'alert(1)' } }],
    });
    const budget = new WorkBudget(Number.POSITIVE_INFINITY);
    expect(findActiveNotebook({ cells }, budget)).toMatch(
      /cell \d+: an output holds a `application\/javascript` output/,
    );
    expect(budget.timeSpent).toBe(0);
  });

  test('whose cells all fit is judged whole and allowed', async () => {
    const verdict = await decideItem(asBytes(notebook(fitting)), 'application/json');
    expect(verdict, verdict.messages).toMatchObject({ effect: 'allow', codes: [] });
  }, 60_000);

  test('one cell over is withheld as too complex, never allowed', async () => {
    const verdict = await decideItem(asBytes(notebook(fitting + 1)), 'application/json');
    expect(verdict.effect, verdict.messages).toBe('partial');
    expect(verdict.codes).toEqual(['content.too-complex']);
    expect(verdict.messages).toMatch(/parser time/);
  }, 60_000);

  test('a script in its last fitting cell is found and denied', async () => {
    // first in the cell, where no code fence the cut of the prose leaves open can hold it
    const last = `<img src=x onerror=alert(1)>\n\n${cellText.slice(0, 1900)}`;
    const verdict = await decideItem(asBytes(notebook(fitting, last)), 'application/json');
    expect(verdict.effect, verdict.messages).toBe('deny');
    expect(verdict.messages).toMatch(/notebook cell \d+: a markdown cell holds/);
  }, 60_000);

  test('a script in a cell past the bound is withheld with the rest, never allowed', async () => {
    // first in the cell, where no code fence the cut of the prose leaves open can hold it
    const last = `<img src=x onerror=alert(1)>\n\n${cellText.slice(0, 1900)}`;
    // the cell before it already runs over the bound: the script is never read
    const verdict = await decideItem(asBytes(notebook(fitting + 2, last)), 'application/json');
    expect(verdict.effect, verdict.messages).not.toBe('allow');
    expect(verdict.codes).toContain('content.too-complex');
  }, 60_000);
});

describe('a notebook of many small cells', () => {
  // each render costs its renderer's fixed work (making a parser, combining extensions) whatever the text's length,
  // and each page parse5's; charged per character only, tens of thousands of one-line cells fit the bound and took
  // the gate several seconds
  const small = (i: number) => markdownCell(`<i on=${i % 10}>`);
  const smallNotebook = (count: number) => ({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: Array.from({ length: count }, (_, i) => small(i)),
  });
  const budget = new WorkBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  findActiveNotebook(smallNotebook(1), budget);
  const perSmallCell = budget.timeSpent;

  test('is charged each render, and withheld as too complex before any renderer starts', async () => {
    const count = Math.ceil((2 * maxParserNanos) / perSmallCell);
    // per character alone, these cells would be charged a small part of the bound
    expect(count * '<i on=0>'.length * markdownNanosPerChar(notebookViewerRenderers)).toBeLessThan(maxParserNanos / 2);
    const verdict = await decideItem(asBytes(smallNotebook(count)), 'application/json');
    expect(verdict.effect, verdict.messages).toBe('partial');
    expect(verdict.codes).toEqual(['content.too-complex']);
  }, 60_000);

  test('a few hundred of them are judged whole', async () => {
    const verdict = await decideItem(asBytes(smallNotebook(300)), 'application/json');
    expect(verdict, verdict.messages).toMatchObject({ effect: 'allow', codes: [] });
  }, 60_000);
});
