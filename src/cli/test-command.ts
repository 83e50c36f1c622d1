import { resolve as resolvePath } from 'node:path';
import { loadPolicy } from '../policy/load-policy.ts';
import { displayPath } from '../review/display-path.ts';
import { formatTestJson, formatTestText, testReportPassed } from '../review/format-test.ts';
import { formatJunit, type TestEntry } from '../review/junit.ts';
import { casesPathFor, loadCases, type CasesFile } from '../review/policy-cases.ts';
import { runCases } from '../review/run-cases.ts';
import type { CliCommand } from './cli-io.ts';
import { reportLoadError, usageError } from './report-error.ts';
import { policyFilesOnly } from './policy-files-only.ts';
import { parseCommandArgs } from './parse-command-args.ts';

const usage = 'usage: linkgate test [--format text|junit|json] [--coverage-threshold PERCENT] [--cases FILE]… POLICY…';
const formats = ['text', 'junit', 'json'] as const;

/** `linkgate test`: runs each policy's case file (`X.cases.yaml`, or `--cases`); exit 0 all pass, 1 a failing case or coverage below the threshold, 2 usage or load errors. */
export const testCommand: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(
    args,
    io,
    usage,
    {
      format: { type: 'string', default: 'text' },
      'coverage-threshold': { type: 'string' },
      cases: { type: 'string', multiple: true },
    },
    { positionals: true },
  );
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const positionals = policyFilesOnly(parsed.positionals, io);
  const format = values.format;
  if (!(formats as readonly string[]).includes(format))
    return usageError(io, `unknown format \`${format}\`; expected text, junit or json`, usage);
  let threshold: number | null = null;
  if (values['coverage-threshold'] !== undefined) {
    threshold = Number(values['coverage-threshold']);
    if (values['coverage-threshold'].trim() === '' || !Number.isFinite(threshold) || threshold < 0 || threshold > 100) {
      return usageError(
        io,
        `\`--coverage-threshold\` must be a percentage from 0 to 100, got \`${values['coverage-threshold']}\``,
        usage,
      );
    }
  }
  if (positionals.length === 0) return usageError(io, 'missing `POLICY` file', usage);

  const entries: TestEntry[] = [];
  try {
    const shared: CasesFile[] = [];
    for (const file of values.cases ?? [])
      shared.push(await loadCases(resolvePath(io.cwd, file), displayPath(io.cwd, file)));
    for (const policyFile of positionals) {
      const policy = await loadPolicy(resolvePath(io.cwd, policyFile));
      const files =
        shared.length > 0
          ? shared
          : [
              await loadCases(
                resolvePath(io.cwd, casesPathFor(policyFile)),
                displayPath(io.cwd, casesPathFor(policyFile)),
              ),
            ];
      entries.push({
        policyFile: displayPath(io.cwd, policyFile),
        casesFiles: files.map((f) => f.file),
        run: await runCases(policy, files),
      });
    }
  } catch (error) {
    return reportLoadError(io, error);
  }
  const report = { entries, threshold };
  if (format === 'junit') io.stdout.write(formatJunit(report));
  else if (format === 'json') io.stdout.write(formatTestJson(report));
  else io.stdout.write(formatTestText(report));
  return testReportPassed(report) ? 0 : 1;
};
