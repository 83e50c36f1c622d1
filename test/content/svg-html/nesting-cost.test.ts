// Nesting cost is counted as it happens (issue 41 item 4): saxes resolves each element's prefixes through every
// open element, and parse5's tree builder looks through the open elements on foreign end tags, so both charge
// the depth at each tag to the item's budget. The same number of elements costs far more nested than flat, and
// an element-dense svg nested near the depth cap runs out of a budget sized for far fewer steps.
import { describe, expect, test } from 'vitest';
import { findActiveHtml } from '../../../src/content/svg-html/active-html.ts';
import { findActiveXml } from '../../../src/content/svg-html/active-xml.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';

const svg = (body: string): string => `<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`;
const nested = (depth: number, times: number): string =>
  svg(`${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}`.repeat(times));
const flat = (count: number): string => svg('<g></g>'.repeat(count));

function spent(read: (text: string, budget: WorkBudget) => unknown, text: string): number {
  const budget = WorkBudget.unlimited();
  read(text, budget);
  return budget.spent;
}

describe('depth × elements is charged in the xml and html readings of svg', () => {
  test.each([
    ['saxes', (text: string, budget: WorkBudget) => findActiveXml(text, 'svg', budget)],
    ['parse5', (text: string, budget: WorkBudget) => findActiveHtml(text, budget)],
  ] as const)('%s: 200 deep costs several times flat for the same elements', (_, read) => {
    const deep = spent(read, nested(200, 50));
    const shallow = spent(read, flat(200 * 50));
    expect(deep / shallow).toBeGreaterThan(4);
  });

  test('an element-dense svg nested 250 deep exhausts a budget of 16 steps per byte', () => {
    const text = nested(250, 40);
    const budget = WorkBudget.forBytes(text.length, 16, 0);
    expect(() => {
      findActiveXml(text, 'svg', budget);
      findActiveHtml(text, budget);
    }).toThrow(/more work than its size allows/);
  });
});
