import { resolve as resolvePath } from 'node:path';
import { loadPolicy } from '../policy/load-policy.ts';
import { diffLoosens, diffPolicies } from '../review/diff-policies.ts';
import { displayPath } from '../review/display-path.ts';
import { formatDiffJson, formatDiffMarkdown, formatDiffText } from '../review/format-diff.ts';
import { loadCases, type CasesFile } from '../review/policy-cases.ts';
import type { CliCommand } from './cli-io.ts';
import { reportLoadError, usageError } from './report-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';

const usage = 'usage: linkgate diff OLD NEW --cases FILE… [--format text|json|markdown] [--allow-loosening]';
const formats = ['text', 'json', 'markdown'] as const;

/** `linkgate diff`: replays case inputs against two policy versions; exit 1 when it loosens (unless `--allow-loosening`), 2 usage or load errors. */
export const diffCommand: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(
    args,
    io,
    usage,
    {
      cases: { type: 'string', multiple: true },
      format: { type: 'string', default: 'text' },
      'allow-loosening': { type: 'boolean' },
    },
    { positionals: true },
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const format = values.format;
  if (!(formats as readonly string[]).includes(format))
    return usageError(io, `unknown format \`${format}\`; expected text, json or markdown`, usage);
  const [oldFile, newFile, ...extra] = positionals;
  if (oldFile === undefined || newFile === undefined)
    return usageError(io, 'expected two policy files, `OLD` and `NEW`', usage);
  if (extra.length > 0) return usageError(io, `unexpected argument \`${extra[0]}\``, usage);
  const casesArgs = values.cases ?? [];
  if (casesArgs.length === 0) return usageError(io, 'missing `--cases FILE`: the lines to replay', usage);

  let diff;
  try {
    const files: CasesFile[] = [];
    for (const file of casesArgs) files.push(await loadCases(resolvePath(io.cwd, file), displayPath(io.cwd, file)));
    const before = { file: displayPath(io.cwd, oldFile), policy: await loadPolicy(resolvePath(io.cwd, oldFile)) };
    const after = { file: displayPath(io.cwd, newFile), policy: await loadPolicy(resolvePath(io.cwd, newFile)) };
    diff = await diffPolicies(before, after, files);
  } catch (error) {
    return reportLoadError(io, error);
  }
  if (format === 'json') io.stdout.write(formatDiffJson(diff));
  else if (format === 'markdown') io.stdout.write(formatDiffMarkdown(diff));
  else io.stdout.write(formatDiffText(diff));
  return diffLoosens(diff) && values['allow-loosening'] !== true ? 1 : 0;
};
