import { coverageMet, type TestReport } from './junit.ts';
import { describeGot, describeWant } from './run-cases.ts';

/** True when every case passed and every entry met the coverage threshold. */
export function testReportPassed(report: TestReport): boolean {
  return report.entries.every(
    (e) => e.run.results.every((r) => r.failures.length === 0) && coverageMet(e, report.threshold),
  );
}

/** Text: one summary line per policy, then each failing case with its location, want and got, then coverage gaps. */
export function formatTestText(report: TestReport): string {
  const lines: string[] = [];
  for (const entry of report.entries) {
    const { results, coverage } = entry.run;
    const failed = results.filter((r) => r.failures.length > 0);
    lines.push(
      `${entry.policyFile}: ${results.length} cases from ${entry.casesFiles.join(', ')}, ${results.length - failed.length} passed, ${failed.length} failed; ` +
        `rule coverage ${coverage.covered.length}/${coverage.targets.length} (${coverage.percent}%)`,
    );
    for (const r of failed) {
      lines.push(`  FAIL ${r.case.file}:${r.case.line}:${r.case.col}: ${r.name}`);
      lines.push(`    want: ${describeWant(r.case.want)}`);
      lines.push(`    got:  ${describeGot(r.got)}`);
      for (const f of r.failures) lines.push(`    - ${f}`);
    }
    if (coverage.missed.length > 0) lines.push(`  not covered: ${coverage.missed.join(', ')}`);
    if (!coverageMet(entry, report.threshold))
      lines.push(`  FAIL rule coverage ${coverage.percent}% is below the threshold of ${report.threshold}%`);
  }
  lines.push(testReportPassed(report) ? 'ok' : 'FAILED');
  return `${lines.join('\n')}\n`;
}

/** JSON: per policy, every case with want, got and failures, and the coverage. */
export function formatTestJson(report: TestReport): string {
  const policies = report.entries.map((e) => ({
    policy: e.policyFile,
    ref: e.run.policy.ref,
    cases: e.casesFiles,
    passed: e.run.results.filter((r) => r.failures.length === 0).length,
    failed: e.run.results.filter((r) => r.failures.length > 0).length,
    coverage: { ...e.run.coverage, met: coverageMet(e, report.threshold) },
    results: e.run.results.map((r) => ({
      name: r.name,
      file: r.case.file,
      line: r.case.line,
      col: r.case.col,
      passed: r.failures.length === 0,
      want: r.case.want,
      got: {
        effect: r.got.effect,
        reasons: r.got.reasons.map((x) => ({ code: x.code, rule: x.rule })),
        ...(r.got.items === undefined ? {} : { items: r.got.items.map((i) => ({ index: i.index, effect: i.effect })) }),
      },
      failures: r.failures,
    })),
  }));
  return `${JSON.stringify({ passed: testReportPassed(report), threshold: report.threshold, policies }, null, 2)}\n`;
}
