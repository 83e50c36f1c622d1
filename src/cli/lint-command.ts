import { resolve as resolvePath } from 'node:path';
import type { Diagnostic } from '../errors.ts';
import { displayPath } from '../review/display-path.ts';
import { formatLintJson, formatLintText, summarizeLint } from '../review/format-lint.ts';
import { lintPolicyText, sortDiagnostics, utcToday } from '../review/lint-policy.ts';
import { toSarif } from '../review/sarif.ts';
import { packageVersion } from './package-version.ts';
import { GateError } from '../errors.ts';
import { readNamedFile } from '../policy/read-named-file.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { formatOption } from './format-option.ts';
import { policyFilesOnly } from './policy-files-only.ts';
import { lintReviewSignatures } from '../review/lint-review.ts';
import { checkPolicyText } from '../policy/check-policy.ts';
import { reviewOptionsOf } from '../policy/load-policy.ts';
import { reviewLoadOptions, reviewOptions } from './review-options.ts';

/** `linkgate lint` (docs/cli.md): loader and semantic findings of policy files; exit 0 clean, 1 findings at the fail level, 2 usage or unreadable. */
export const lintDefinition = defineCommand({
  name: 'lint',
  summary: 'check policy files: schema, rules, over-broad settings, review dates',
  synopsis:
    '[--format text|json|sarif] [--fail-level error|warning] [--today YYYY-MM-DD] [--allowed-signers FILE [--min-signers N]] FILE…',
  description: [
    'reports every finding of each policy file with its `file:line:col`, a stable code (docs/policy-reference.md) and a severity; case files named among the files (`X.cases.yaml`) are skipped with a note.',
    'review signatures (POLICY.sig, docs/reviews.md): any that are there are checked against the bytes; with `--allowed-signers` a policy without one, or one whose review does not hold, is an error.',
  ],
  options: {
    format: formatOption(['text', 'json', 'sarif'], 'text, json or sarif (for code-scanning uploads)'),
    'fail-level': {
      type: 'string',
      value: 'LEVEL',
      default: 'error',
      choices: ['error', 'warning'],
      description: 'lowest severity that fails the run: error or warning',
    },
    today: {
      type: 'string',
      value: 'YYYY-MM-DD',
      description: 'the date review and expiry dates are checked against (default: today, utc)',
    },
    ...reviewOptions,
  },
  positionals: [{ name: 'FILE…', description: 'policy files (yaml)' }],
  example: 'linkgate lint policies/default.yaml policies/strict.yaml',
  exitCodes: {
    0: 'no finding at the fail level',
    1: 'a finding at the fail level',
    2: 'usage error or an unreadable file',
  },
  run: async (parsed, io) => {
    const { values, usageError } = parsed;
    const positionals = policyFilesOnly(parsed.positionals, io);
    const format = values.format;
    const failLevel = values['fail-level'];
    const today = values.today ?? utcToday();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(today) || Number.isNaN(Date.parse(`${today}T00:00:00Z`)))
      return usageError(`\`--today\` must be a date \`YYYY-MM-DD\`, got \`${today}\``);
    if (positionals.length === 0) return usageError('missing policy `FILE`');
    const loadOptions = reviewLoadOptions(values, io);
    if (typeof loadOptions === 'string') return usageError(loadOptions);
    const review = reviewOptionsOf(
      values.today === undefined ? loadOptions : { ...loadOptions, nowMs: Date.parse(`${today}T00:00:00Z`) },
    );

    let unreadable = false;
    const all: Diagnostic[] = [];
    for (const file of positionals) {
      const shown = displayPath(io.cwd, file);
      let bytes: Buffer;
      try {
        bytes = await readNamedFile('POLICY_UNREADABLE', 'policy', resolvePath(io.cwd, file), shown);
      } catch (error) {
        if (!(error instanceof GateError)) throw error;
        unreadable = true;
        io.stderr.write(`linkgate: ${error.message}\n`);
        continue;
      }
      const text = bytes.toString('utf8');
      all.push(...lintPolicyText(text, shown, { today }));
      const loaded = checkPolicyText(text, shown).policy;
      if (loaded !== undefined)
        all.push(...(await lintReviewSignatures(bytes, loaded.document, resolvePath(io.cwd, file), shown, review)));
    }
    const diagnostics = sortDiagnostics(all);
    const summary = summarizeLint(diagnostics, positionals.length);
    if (format === 'sarif')
      io.stdout.write(`${JSON.stringify(toSarif(diagnostics, { toolVersion: packageVersion() }), null, 2)}\n`);
    else if (format === 'json') io.stdout.write(formatLintJson(diagnostics, summary));
    else io.stdout.write(formatLintText(diagnostics));
    if (unreadable) return 2;
    const failing = failLevel === 'warning' ? summary.errors + summary.warnings : summary.errors;
    return failing > 0 ? 1 : 0;
  },
});

/** `linkgate lint` as a runnable command. */
export const lintCommand = commandRunner(lintDefinition);
