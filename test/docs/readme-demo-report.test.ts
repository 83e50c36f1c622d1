import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { demoReportIn, demoReportMarkdown } from '../../scripts/demo-report.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

describe("the README's demo report", () => {
  test('is what both probes of `npm start` give today (regenerate: npx tsx scripts/gen-demo-report.ts)', async () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const fresh = await demoReportMarkdown();
    expect(fresh).toMatch(/^#### linkgate report: \d+ links/);
    expect(demoReportIn(readme), 'README.md: run `npx tsx scripts/gen-demo-report.ts`').toBe(fresh);
  }, 120_000);
});
