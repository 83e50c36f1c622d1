import { resolve as resolvePath } from 'node:path';
import { loadPolicy } from '../policy/load-policy.ts';
import { displayPath } from '../review/display-path.ts';
import { formatTestJson, formatTestText, testReportPassed } from '../review/format-test.ts';
import { formatJunit, type TestEntry } from '../review/junit.ts';
import { casesPathFor, loadCases, type CasesFile } from '../review/policy-cases.ts';
import { runCases } from '../review/run-cases.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { formatOption } from './format-option.ts';
import { reportLoadError } from './report-error.ts';
import { policyFilesOnly } from './policy-files-only.ts';

/** `linkgate test`: runs each policy's case file (`X.cases.yaml`, or `--cases`); exit 0 all pass, 1 a failing case or coverage below the threshold, 2 usage or load errors. */
export const testDefinition = defineCommand({
  name: 'test',
  summary: "run a policy's case file: decisions, rule coverage, junit",
  synopsis: '[--format text|junit|json] [--coverage-threshold PERCENT] [--cases FILE]… POLICY…',
  description: [
    'each policy `X.yaml` is tested against the case file beside it, `X.cases.yaml` (docs/case-files.md), or against the `--cases` files: every case is decided and compared with what it wants; the report also gives the share of settings and rules the cases exercised.',
    'judges policy content, never the review: $LINKGATE_ALLOWED_SIGNERS is ignored (an unsigned policy would fail every case); check the review with `linkgate review verify` or `linkgate lint --allowed-signers`.',
  ],
  options: {
    format: formatOption(['text', 'junit', 'json'], 'text, junit or json'),
    'coverage-threshold': {
      type: 'string',
      value: 'PERCENT',
      description: 'fail when the cases exercise less than this share of the rules and settings, 0 to 100',
    },
    cases: {
      type: 'string',
      value: 'FILE',
      multiple: true,
      description: "case files to run instead of each policy's `X.cases.yaml`",
    },
  },
  positionals: [{ name: 'POLICY…', description: 'policy files (yaml); case files among them are skipped with a note' }],
  example: 'linkgate test --coverage-threshold 100 policies/default.yaml',
  exitCodes: {
    0: 'every case passed (and coverage reached the threshold)',
    1: 'a case failed or coverage is below the threshold',
    2: 'usage error, or a policy or case file cannot be loaded',
  },
  run: async (parsed, io) => {
    const { values, usageError } = parsed;
    const positionals = policyFilesOnly(parsed.positionals, io);
    const format = values.format;
    let threshold: number | null = null;
    if (values['coverage-threshold'] !== undefined) {
      threshold = Number(values['coverage-threshold']);
      if (
        values['coverage-threshold'].trim() === '' ||
        !Number.isFinite(threshold) ||
        threshold < 0 ||
        threshold > 100
      ) {
        return usageError(
          `\`--coverage-threshold\` must be a percentage from 0 to 100, got \`${values['coverage-threshold']}\``,
        );
      }
    }
    if (positionals.length === 0) return usageError('missing `POLICY` file');

    const entries: TestEntry[] = [];
    try {
      const shared: CasesFile[] = [];
      for (const file of values.cases ?? [])
        shared.push(await loadCases(resolvePath(io.cwd, file), displayPath(io.cwd, file)));
      for (const policyFile of positionals) {
        const policy = await loadPolicy(resolvePath(io.cwd, policyFile), {
          shownAs: displayPath(io.cwd, policyFile),
          env: {},
        });
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
  },
});

/** `linkgate test` as a runnable command. */
export const testCommand = commandRunner(testDefinition);
