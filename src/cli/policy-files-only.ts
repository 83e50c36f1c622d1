import { isCasesPath } from '../review/policy-cases.ts';
import type { CliIo } from './cli-io.ts';

/** The policy files among a command's file arguments: `policies/*.yaml` also matches the case files beside them, which are skipped with a note. */
export function policyFilesOnly(files: readonly string[], io: CliIo): string[] {
  const out: string[] = [];
  for (const file of files) {
    if (isCasesPath(file)) io.stderr.write(`linkgate: skipping case file \`${file}\`\n`);
    else out.push(file);
  }
  return out;
}
