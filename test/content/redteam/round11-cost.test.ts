// Content round 11's cost shapes, gate half (issue 41 item 4: one budget that bounds all work, counted as it
// happens): markdown whose link openings a screen once searched for again from each scheme mark's line start
// (quadratic on one long line: 500 000 `&#` took 11.8 s of CPU before d1ab4bb). Every attack must be refused for what
// it holds or withheld when its counted budget runs out (never allowed); every control allowed, not withheld as too complex (the work
// counted for it fits the budget a body of its size gets). No clock is read: the budget counts steps and calibrated
// parser time (src/content/work-budget.ts). Rewritten from the shapes named in session 13's closing note: the round's
// own file (branch `contentred11`, commit f56f44a) is not in the repository any more.
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const link = '[x](javascript:alert(1))';
const handler = '<img src=x onerror=alert(1)>';
const sendings = sendingsOf('guide://docs/notes', ['.md', ''], ['text/markdown', 'text/plain']);

const attacks: [string, string][] = [
  ['500 000 `&#` on one line, then a script link', `${'&#'.repeat(500_000)} ${link}\n`],
  ['100 000 `a&#x3a;` on one line, then a script link', `${'a&#x3a;'.repeat(100_000)} ${link}\n`],
  ['60 000 `javascript:` words, then a script link', `${'javascript: '.repeat(60_000)}${link}\n`],
  ['300 000 `&#` before a handler', `${'&#'.repeat(300_000)}\n\n${handler}\n`],
  ['200 000 `[` openings before a script link', `${'[a'.repeat(200_000)} ${link}\n`],
];

const controls: [string, string][] = [
  ['500 000 `&#` on one line', `${'&#'.repeat(500_000)}\n`],
  ['100 000 `a&#x3a;` on one line', `${'a&#x3a;'.repeat(100_000)}\n`],
  ['60 000 `javascript:` words in prose', `${'javascript: '.repeat(60_000)}\n`],
  ['20 000 lines of a character reference table', `${'| `&#x3a;` | colon |\n'.repeat(20_000)}`],
];

describe('content round 11, cost: attacks are refused for what they hold, or withheld when the counted budget ends', () => {
  test.for(attacks)('%s', { timeout: 120_000 }, async ([, text]) => {
    const verdicts = await judgeSendings({ text }, sendings);
    expect(letThrough(verdicts)).toEqual([]);
    for (const v of verdicts)
      expect(v.codes.filter((c) => /content\.(executable|too-complex)/.test(c))).not.toEqual([]);
  });
});

describe('content round 11, cost: controls are allowed, their counted work within a budget of their size', () => {
  test.for(controls)('%s', { timeout: 120_000 }, async ([, text]) => {
    const budget = WorkBudget.forBytes(Buffer.byteLength(text));
    // throws WorkExhausted past either bound: the counted steps and parser time fit
    expect(findActiveMarkdown(text, budget)).toBeNull();
    expect(budget.spent).toBeLessThanOrEqual(budget.limit);
    expect(refused(await judgeSendings({ text }, sendings))).toEqual([]);
  });
});
