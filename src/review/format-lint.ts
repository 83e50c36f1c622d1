import { formatDiagnostic, type Diagnostic } from '../errors.ts';

/** Counts of a lint run. */
export interface LintSummary {
  readonly files: number;
  readonly errors: number;
  readonly warnings: number;
}

/** Counts errors and warnings over `files` linted files. */
export function summarizeLint(diagnostics: readonly Diagnostic[], files: number): LintSummary {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { files, errors, warnings: diagnostics.length - errors };
}

/** Text: one `path:line:col: severity code: message` line per finding (DESIGN §4d), in the given (sorted) order. */
export function formatLintText(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join('');
}

/** JSON: the findings with their locations and the counts, one document, two-space indented. */
export function formatLintJson(diagnostics: readonly Diagnostic[], summary: LintSummary): string {
  const findings = diagnostics.map((d) => {
    const out: Record<string, unknown> = {
      file: d.file,
      line: d.line,
      col: d.col,
      severity: d.severity,
      code: d.code,
      message: d.message,
    };
    if (d.path !== undefined) out['path'] = d.path;
    return out;
  });
  return `${JSON.stringify({ summary, diagnostics: findings }, null, 2)}\n`;
}
