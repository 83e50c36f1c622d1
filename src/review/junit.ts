import { describeGot, describeWant, type CasesRun } from './run-cases.ts';

/** One policy's case run as the report lists it: the policy file and the case files it ran. */
export interface TestEntry {
  readonly policyFile: string;
  readonly casesFiles: readonly string[];
  readonly run: CasesRun;
}

/** A whole `linkgate test` run: its entries and the coverage threshold in percent (null: none asked for). */
export interface TestReport {
  readonly entries: readonly TestEntry[];
  readonly threshold: number | null;
}

/** True when the entry's coverage meets the threshold (always true without one). */
export function coverageMet(entry: TestEntry, threshold: number | null): boolean {
  return threshold === null || entry.run.coverage.percent >= threshold;
}

// XML 1.0 forbids most C0 controls even as references; drop them, escape the markup characters
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** JUnit XML: one `testsuite` per policy, one `testcase` per case (names unique within a suite), plus a coverage case when a threshold is set. */
export function formatJunit(report: TestReport): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  let tests = 0;
  let failures = 0;
  const suites: string[] = [];
  for (const entry of report.entries) {
    const { run } = entry;
    const cases: string[] = [];
    let suiteFailures = 0;
    for (const r of run.results) {
      const attrs = `classname="${xml(entry.policyFile)}" name="${xml(r.name)}" file="${xml(r.case.file)}" line="${r.case.line}"`;
      if (r.failures.length === 0) {
        cases.push(`    <testcase ${attrs}/>`);
        continue;
      }
      suiteFailures += 1;
      const body = [`want: ${describeWant(r.case.want)}`, `got:  ${describeGot(r.got)}`, ...r.failures].join('\n');
      cases.push(
        `    <testcase ${attrs}>\n      <failure message="${xml(r.failures.join('; '))}" type="decision">${xml(body)}</failure>\n    </testcase>`,
      );
    }
    if (report.threshold !== null) {
      const name = `rule coverage at least ${report.threshold}%`;
      const attrs = `classname="${xml(entry.policyFile)}" name="${xml(name)}"`;
      if (coverageMet(entry, report.threshold)) cases.push(`    <testcase ${attrs}/>`);
      else {
        suiteFailures += 1;
        const message = `coverage ${run.coverage.percent}% is below ${report.threshold}%; not covered: ${run.coverage.missed.join(', ')}`;
        cases.push(
          `    <testcase ${attrs}>\n      <failure message="${xml(message)}" type="coverage">${xml(message)}</failure>\n    </testcase>`,
        );
      }
    }
    tests += cases.length;
    failures += suiteFailures;
    const { coverage } = run;
    const properties = [
      ['policy.id', run.policy.ref.id],
      ['policy.version', run.policy.ref.version],
      ['cases', entry.casesFiles.join(' ')],
      ['coverage.percent', String(coverage.percent)],
      ['coverage.covered', coverage.covered.join(' ')],
      ['coverage.missed', coverage.missed.join(' ')],
    ].map(([name, value]) => `    <property name="${xml(name ?? '')}" value="${xml(value ?? '')}"/>`);
    suites.push(
      [
        `  <testsuite name="${xml(entry.policyFile)}" tests="${cases.length}" failures="${suiteFailures}" errors="0" skipped="0">`,
        '    <properties>',
        ...properties.map((p) => `  ${p}`),
        '    </properties>',
        ...cases,
        '  </testsuite>',
      ].join('\n'),
    );
  }
  out.push(`<testsuites name="linkgate test" tests="${tests}" failures="${failures}" errors="0">`);
  out.push(...suites);
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
