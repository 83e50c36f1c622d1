import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';

/** Folder of the golden files, beside this helper. */
export const goldenDir = join(import.meta.dirname, 'golden');

/** Compares `actual` with `golden/<name>`; `UPDATE_GOLDEN=1` rewrites the file instead (review the diff before committing). */
export function expectGolden(name: string, actual: string): void {
  const file = join(goldenDir, name);
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(file)) {
    if (process.env['UPDATE_GOLDEN'] !== '1')
      throw new Error(`golden file \`${name}\` is missing; run with UPDATE_GOLDEN=1 to write it`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
