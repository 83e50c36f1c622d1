// A notebook is read once for everything its viewers' pages hold (issue 41 item 4): its pieces are listed once, and
// a markdown cell's pages are made once and read both for active content and for stylesheets loaded from elsewhere
// (before, the stylesheet reading listed the pieces again and rendered every such cell a second time). The charge a
// cell is counted through the same budget code; what a page's stylesheet reading adds is parse5's read of each
// distinct page that names a style.
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown } from '../../src/content/markdown/active-markdown.ts';
import { notebookViewerRenderers, renderWith } from '../../src/content/markdown/markdown-renderers.ts';
import { markdownRuns, stylesheetElement } from '../../src/content/markdown/markdown-parts.ts';
import { readNotebook } from '../../src/content/notebook/active-notebook.ts';
import { parse5NanosPerChar, parse5NanosPerParse } from '../../src/content/parser-nanos.ts';
import { WorkBudget } from '../../src/content/work-budget.ts';
import { decideItem } from './decide-item.ts';
import { htmlOutput, markdownCell, notebookOf } from './notebook-cells.ts';

const sheet = 'https://evil.example/x.css';
const notebook = notebookOf;
const unlimited = () => new WorkBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);

describe('a notebook read once', () => {
  // a cell the screen lets through to the renderers (a `style` attribute in a tag) that also links a stylesheet
  const live = `# Theme\n\nPress <kbd style="color: teal">Ctrl+S</kbd>.\n\n<link rel="stylesheet" href="${sheet}">\n`;

  test('a live markdown cell is rendered once for both readings', () => {
    const budget = unlimited();
    const found = readNotebook(notebook([markdownCell(live)]), budget);
    expect(found).toEqual({
      active: null,
      remoteLoad: expect.stringMatching(/^notebook cell 1: a markdown cell holds/),
    });
    // the active reading alone, and parse5's read of each distinct page naming a style for the loads
    const alone = unlimited();
    expect(findActiveMarkdown(live, alone, notebookViewerRenderers)).toBeNull();
    // the pages of the parts read (markdown-parts.ts: those the screen passes and those naming a stylesheet)
    const runs = markdownRuns(live, (part) => stylesheetElement.test(part));
    const pages = new Set(runs.flatMap((run) => notebookViewerRenderers.map((r) => renderWith(r, run))));
    let loads = 0;
    for (const page of pages) if (/style/i.test(page)) loads += parse5NanosPerParse + parse5NanosPerChar * page.length;
    expect(budget.timeSpent).toBe(alone.timeSpent + loads);
  });

  test('the first active piece wins over an earlier stylesheet, and a stylesheet is found when nothing is active', () => {
    const both = notebook([
      htmlOutput(`<style>@import url(${sheet});</style><p>x</p>`),
      markdownCell('<img src=x onerror=alert(1)>'),
    ]);
    const found = readNotebook(both, unlimited());
    expect(found.active).toMatch(/^notebook cell 2: a markdown cell holds .*onerror/);
    expect(found.remoteLoad).toMatch(/^notebook cell 1: an output holds/);
  });

  test.each([
    ['an html output importing a stylesheet', notebook([htmlOutput(`<style>@import url(${sheet});</style><p>x</p>`)])],
    [
      'a markdown cell linking a stylesheet elsewhere',
      notebook([markdownCell(`# x\n\n<link rel="stylesheet" href="${sheet}">\n`)]),
    ],
    ['a live markdown cell linking a stylesheet elsewhere', notebook([markdownCell(live)])],
  ])('%s is withheld as a remote load', async (_name, value) => {
    const verdict = await decideItem(Buffer.from(JSON.stringify(value)), 'application/json');
    expect(verdict.effect, verdict.messages).not.toBe('allow');
    expect(verdict.codes).toEqual(['content.remote-load']);
  });

  test('a stylesheet shown in a fenced block is text', async () => {
    const value = notebook([
      markdownCell(`Add the theme:\n\n\`\`\`html\n<link rel="stylesheet" href="${sheet}">\n\`\`\`\n`),
    ]);
    expect(readNotebook(value, unlimited())).toEqual({ active: null, remoteLoad: null });
    const verdict = await decideItem(Buffer.from(JSON.stringify(value)), 'application/json');
    expect(verdict, verdict.messages).toMatchObject({ effect: 'allow', codes: [] });
  });
});
