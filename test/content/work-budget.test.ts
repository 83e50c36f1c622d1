import { describe, expect, it } from 'vitest';
import { WorkBudget, WorkExhausted } from '../../src/content/work-budget.ts';

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
