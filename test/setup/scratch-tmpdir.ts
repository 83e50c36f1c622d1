import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Gives the whole run one scratch temp folder as `TMPDIR` (the test files and every process they start inherit it) and
 * removes it with everything in it when the run ends, so the temp folders tests make are not left behind.
 */
export default function scratchTmpdir(): () => void {
  const previous = process.env['TMPDIR'];
  const folder = mkdtempSync(path.join(tmpdir(), 'linkgate-test-run-'));
  process.env['TMPDIR'] = folder;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
