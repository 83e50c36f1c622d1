import { describe, expect, it } from 'vitest';
import { hasShared } from './shared-dir.ts';

describe('hasShared', () => {
  it('skips quietly outside CI and fails under CI=true when the shared folder lacks the path', () => {
    const missing = 'corpus/no-such-corpus/cases.jsonl';
    expect(hasShared(missing, {})).toBe(false);
    expect(() => hasShared(missing, { CI: 'true' })).toThrow(/no-such-corpus.*CI=true/);
  });
});
