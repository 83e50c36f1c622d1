// A notebook's pieces are screened and cut before any renderer reads them, once each, and that work is charged to the
// item's parser time as it runs (issue 41 item 4: the budget measured, not modelled): a notebook of thousands of
// cells the screen keeps from the renderers was read for nothing on the budget, and one past the bound was judged
// whatever it cost. Past the bound the answer is a withholding (too complex), never nothing found.
import { describe, expect, test } from 'vitest';
import { findActiveNotebook } from '../../../src/content/notebook/active-notebook.ts';
import { planCharges } from '../../../src/content/markdown/active-markdown.ts';
import { screenNanosPerChar } from '../../../src/content/parser-nanos.ts';
import { WorkBudget, WorkExhausted } from '../../../src/content/work-budget.ts';

// prose the screen keeps from the renderers (no tag, no scheme, no reference), and prose it passes (a styled tag)
const inert = 'The `options` object sets **each** run; see the notes and _the guide_.\n\n- one\n- two\n';
const live = 'Press <kbd style="color: teal">Ctrl+S</kbd> to save.\n';
const markdownCell = (source: string) => ({ cell_type: 'markdown', metadata: {}, source: [source] });
const notebook = (cells: unknown[]) => ({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells });

describe('the screens and cutting in front of the notebook viewers are charged', () => {
  test('a cell the screen keeps from the renderers costs its screen', () => {
    const budget = WorkBudget.unlimited();
    expect(findActiveNotebook(notebook([markdownCell(inert)]), budget)).toBeNull();
    expect(budget.timeSpent).toBe(planCharges(inert).screen);
  });

  test('a cell the screen passes costs its screen and its cutting once, before the renderers', () => {
    const budget = WorkBudget.unlimited();
    expect(findActiveNotebook(notebook([markdownCell(live)]), budget)).toBeNull();
    const { screen, parts } = planCharges(live);
    expect(budget.timeSpent).toBeGreaterThan(screen + parts);
    const screened = WorkBudget.unlimited();
    findActiveNotebook(notebook([markdownCell(inert)]), screened);
    // the renderers' charge is the rest: the screen ran once per piece, not again inside the markdown reading
    expect(screened.timeSpent).toBe(planCharges(inert).screen);
  });

  test('screening past the bound withholds (the caller answers too complex)', () => {
    const cells = Array.from({ length: 2000 }, () => markdownCell(inert));
    const budget = new WorkBudget(Number.POSITIVE_INFINITY, screenNanosPerChar * inert.length * 1000);
    expect(() => findActiveNotebook(notebook(cells), budget)).toThrow(WorkExhausted);
  });
});
