import { resolve as resolvePath } from 'node:path';
import { loadPolicy } from '../policy/load-policy.ts';
import { diffLoosens, diffPolicies } from '../review/diff-policies.ts';
import { displayPath } from '../review/display-path.ts';
import { formatDiffJson, formatDiffMarkdown, formatDiffText } from '../review/format-diff.ts';
import { loadCases, type CasesFile } from '../review/policy-cases.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { formatOption } from './format-option.ts';
import { reportLoadError } from './report-error.ts';

/** `linkgate diff`: replays case inputs against two policy versions; exit 1 when it loosens (unless `--allow-loosening`), 2 usage or load errors. */
export const diffDefinition = defineCommand({
  name: 'diff',
  summary: 'replay case lines against two policy versions; flag loosening',
  synopsis: 'OLD NEW --cases FILE… [--format text|json|markdown] [--allow-loosening]',
  description: [
    'decides every input of the case files (docs/case-files.md) under both policies and lists the lines whose decision changed, with the settings that changed; a change from deny to allow (or partial to allow) is a loosening.',
    'judges policy content, never the review: $LINKGATE_ALLOWED_SIGNERS is ignored (an unsigned proposal would deny everything and hide what it loosens); check the review with `linkgate review verify` or `linkgate lint --allowed-signers`.',
  ],
  options: {
    cases: {
      type: 'string',
      value: 'FILE',
      multiple: true,
      required: true,
      description: 'case files whose inputs are replayed',
    },
    format: formatOption(['text', 'json', 'markdown'], 'text, json or markdown (for a pull-request comment)'),
    'allow-loosening': { type: 'boolean', description: 'exit 0 even when the new policy loosens a decision' },
  },
  positionals: [
    { name: 'OLD', description: 'the policy file before the change' },
    { name: 'NEW', description: 'the policy file after the change' },
  ],
  example: 'linkgate diff policies/default.yaml policies/strict.yaml --cases policies/default.cases.yaml',
  exitCodes: {
    0: 'no loosening (or `--allow-loosening`)',
    1: 'the new policy loosens a decision',
    2: 'usage error, or a policy or case file cannot be loaded',
  },
  run: async (parsed, io) => {
    const { values, positionals, usageError } = parsed;
    const format = values.format;
    const [oldFile, newFile, ...extra] = positionals;
    if (oldFile === undefined || newFile === undefined) return usageError('expected two policy files, `OLD` and `NEW`');
    if (extra.length > 0) return usageError(`unexpected argument \`${extra[0]}\``);
    const casesArgs = values.cases ?? [];

    let diff;
    try {
      const files: CasesFile[] = [];
      for (const file of casesArgs) files.push(await loadCases(resolvePath(io.cwd, file), displayPath(io.cwd, file)));
      const before = {
        file: displayPath(io.cwd, oldFile),
        policy: await loadPolicy(resolvePath(io.cwd, oldFile), { shownAs: displayPath(io.cwd, oldFile), env: {} }),
      };
      const after = {
        file: displayPath(io.cwd, newFile),
        policy: await loadPolicy(resolvePath(io.cwd, newFile), { shownAs: displayPath(io.cwd, newFile), env: {} }),
      };
      diff = await diffPolicies(before, after, files);
    } catch (error) {
      return reportLoadError(io, error);
    }
    if (format === 'json') io.stdout.write(formatDiffJson(diff));
    else if (format === 'markdown') io.stdout.write(formatDiffMarkdown(diff));
    else io.stdout.write(formatDiffText(diff));
    return diffLoosens(diff) && values['allow-loosening'] !== true ? 1 : 0;
  },
});

/** `linkgate diff` as a runnable command. */
export const diffCommand = commandRunner(diffDefinition);
