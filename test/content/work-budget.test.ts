import { describe, expect, it, test } from 'vitest';
import { judgeContent, type ContentRules } from '../../src/content/judge-content.ts';
import { scriptStepsPerChar } from '../../src/content/polyglot.ts';
import { sniffContent } from '../../src/content/sniff-content.ts';
import { WorkBudget, WorkExhausted } from '../../src/content/work-budget.ts';
import { makeGif, makePdf, makePng, makeZip } from '../fixtures/make-bytes.ts';

describe('WorkBudget', () => {
  it('is linear in the bytes and throws past its limit, naming the family', () => {
    const budget = WorkBudget.forBytes(100, 10, 50);
    expect(budget.limit).toBe(1050);
    budget.spend('markdown', 1000);
    expect(budget.remaining).toBe(50);
    budget.spend('markdown', 50);
    expect(() => budget.spend('pdf', 1)).toThrow(WorkExhausted);
    try {
      budget.spend('pdf', 1);
    } catch (e) {
      expect((e as WorkExhausted).family).toBe('pdf');
    }
    expect(budget.remaining).toBe(0);
  });

  it('an unlimited budget never throws', () => {
    const budget = WorkBudget.unlimited();
    budget.spend('html', Number.MAX_SAFE_INTEGER);
    expect(budget.spent).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('the item budget in the content judgement', () => {
  const rules: ContentRules = { allow: ['application/pdf', 'image/png', 'text/plain', 'text/markdown'] };
  const items: [string, string, Buffer][] = [
    ['pdf', 'application/pdf', makePdf()],
    ['png with a zip after it', 'image/png', Buffer.concat([makePng(), makeZip([{ name: 'a.txt', data: 'a' }])])],
    ['markdown with html', 'text/markdown', Buffer.from('# t\n\n<b onclick="x">hi</b>\n'.repeat(8), 'utf8')],
  ];

  test.each(items)(
    '%s: a budget that runs out withholds the item as too complex, never allows it',
    async (_, mime, bytes) => {
      const sniff = await sniffContent(bytes, { budget: new WorkBudget(bytes.length / 2) });
      expect(sniff.tooComplex).toMatch(/more work than its size allows/);
      const judged = judgeContent(mime, sniff, rules);
      expect(judged.effect).not.toBe('allow');
      expect(judged.findings.map((f) => f.reason.code)).toContain('content.too-complex');
    },
  );

  test.each(items)('%s: every check spends from the one budget', async (_, __, bytes) => {
    const budget = WorkBudget.unlimited();
    const sniff = await sniffContent(bytes, { budget });
    expect(sniff.tooComplex).toBeNull();
    expect(budget.spent).toBeGreaterThanOrEqual(bytes.length);
  });

  it('an ordinary item stays far inside its default budget', async () => {
    const bytes = makePdf();
    const sniff = await sniffContent(bytes);
    expect(sniff.tooComplex).toBeNull();
    expect(judgeContent('application/pdf', sniff, rules).effect).toBe('allow');
  });
});

describe('costs that grew faster than the size are budget-limited', () => {
  it('a gif that opens a script comment, then a MiB of script ending in a syntax error, is not parsed once per reading', async () => {
    const gif = makeGif({ width: 0x2a2f, height: 1 });
    const script = Buffer.from(`*/=1;\n${'a=1;\n'.repeat(1 << 18)}+`, 'latin1');
    const bytes = Buffer.concat([gif, script]);
    const budget = WorkBudget.forBytes(bytes.length);
    const sniff = await sniffContent(bytes, { budget });
    // one whole-file parse costs scriptStepsPerChar a character: the budget refuses it before acorn runs
    expect(sniff.tooComplex).toMatch(/\(script\)/);
    expect(budget.spent).toBeLessThan(budget.limit + scriptStepsPerChar * bytes.length + 1);
    expect(judgeContent('image/gif', sniff, { allow: ['image/gif'] }).effect).toBe('partial');
  });
});
