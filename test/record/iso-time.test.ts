import { describe, expect, test } from 'vitest';
import { isoTime } from '../../src/record/iso-time.ts';

describe('isoTime', () => {
  test('is toISOString for every instant, also when one Date object changes or two share an instant', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(isoTime(at)).toBe('2026-01-02T03:04:05.678Z');
    expect(isoTime(new Date(at.getTime()))).toBe('2026-01-02T03:04:05.678Z');
    at.setTime(at.getTime() + 1);
    expect(isoTime(at)).toBe('2026-01-02T03:04:05.679Z');
    expect(isoTime(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });

  test('an invalid date throws as toISOString does', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
