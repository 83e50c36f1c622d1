import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';

test('the run has its own scratch temp folder, removed at its end (test/setup/scratch-tmpdir.ts)', () => {
  expect(path.basename(tmpdir())).toMatch(/^linkgate-test-run-/);
  expect(process.env['TMPDIR']).toBe(tmpdir());
});
