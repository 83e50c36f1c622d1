import { describe, expect, it } from 'vitest';
import { strongerEffect } from '../src/decision/decision.ts';

describe('effects', () => {
  it('deny beats partial beats allow', () => {
    expect(strongerEffect('allow', 'partial')).toBe('partial');
    expect(strongerEffect('deny', 'partial')).toBe('deny');
    expect(strongerEffect('allow', 'allow')).toBe('allow');
  });
});
