import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { Diagnostic } from '../gate-error.ts';
import { displayPath } from '../review/display-path.ts';
import { formatLintJson, formatLintText, summarizeLint } from '../review/format-lint.ts';
import { lintPolicyText, sortDiagnostics, utcToday } from '../review/lint-policy.ts';
import { toSarif } from '../review/sarif.ts';
import { toolVersion } from '../review/tool-version.ts';
import type { CliCommand } from './cli-io.ts';
import { usageError } from './report-error.ts';
import { policyFilesOnly } from './policy-files-only.ts';
import { parseCommandArgs } from './parse-command-args.ts';

const usage = 'usage: linkgate lint [--format text|json|sarif] [--fail-level error|warning] [--today YYYY-MM-DD] FILE…';
const formats = ['text', 'json', 'sarif'] as const;

/** `linkgate lint` (DESIGN §4d): loader and semantic findings of policy files; exit 0 clean, 1 findings at the fail level, 2 usage or unreadable. */
export const lintCommand: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(
    args,
    io,
    usage,
    {
      format: { type: 'string', default: 'text' },
      'fail-level': { type: 'string', default: 'error' },
      today: { type: 'string' },
    },
    { positionals: true },
  );
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const positionals = policyFilesOnly(parsed.positionals, io);
  const format = values.format;
  if (!(formats as readonly string[]).includes(format))
    return usageError(io, `unknown format \`${format}\`; expected text, json or sarif`, usage);
  const failLevel = values['fail-level'];
  if (failLevel !== 'error' && failLevel !== 'warning')
    return usageError(io, `unknown fail level \`${failLevel}\`; expected error or warning`, usage);
  const today = values.today ?? utcToday();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today) || Number.isNaN(Date.parse(`${today}T00:00:00Z`)))
    return usageError(io, `\`--today\` must be a date \`YYYY-MM-DD\`, got \`${today}\``, usage);
  if (positionals.length === 0) return usageError(io, 'missing policy `FILE`', usage);

  let unreadable = false;
  const all: Diagnostic[] = [];
  for (const file of positionals) {
    const shown = displayPath(io.cwd, file);
    let text: string;
    try {
      text = await readFile(resolvePath(io.cwd, file), 'utf8');
    } catch (error) {
      unreadable = true;
      const why = (error as NodeJS.ErrnoException).code ?? 'read error';
      io.stderr.write(`linkgate: cannot read \`${shown}\` (${why})\n`);
      continue;
    }
    all.push(...lintPolicyText(text, shown, { today }));
  }
  const diagnostics = sortDiagnostics(all);
  const summary = summarizeLint(diagnostics, positionals.length);
  if (format === 'sarif')
    io.stdout.write(`${JSON.stringify(toSarif(diagnostics, { toolVersion: toolVersion() }), null, 2)}\n`);
  else if (format === 'json') io.stdout.write(formatLintJson(diagnostics, summary));
  else io.stdout.write(formatLintText(diagnostics));
  if (unreadable) return 2;
  const failing = failLevel === 'warning' ? summary.errors + summary.warnings : summary.errors;
  return failing > 0 ? 1 : 0;
};
