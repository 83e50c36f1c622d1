// What reading markdown charges the item's parser time (issue 41 item 4, the budget measured, not modelled): the
// screen and the cutting in front of the renderers, the renderers and the token read, and the screen in front of
// parse5 over each distinct page they make, each as it runs.
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown, planCharge, planMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { markdownRenderers, renderWith } from '../../../src/content/markdown/markdown-renderers.ts';
import { partsNanosPerChar, screenNanosPerChar } from '../../../src/content/parser-nanos.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';

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
    expect(budget.timeSpent).toBe(
      (screenNanosPerChar + partsNanosPerChar) * text.length + planCharge(plan) + pageScreens,
    );
  });

  test('a text the screen keeps from the renderers costs its screen alone', () => {
    const text = 'Plain notes, `options = {}` and a [link](https://example.com).\n';
    const budget = WorkBudget.unlimited();
    expect(findActiveMarkdown(text, budget)).toBeNull();
    expect(budget.timeSpent).toBe(screenNanosPerChar * text.length);
  });
});
