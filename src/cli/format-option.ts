/**
 * `--format FORMAT`, `text` by default: the output option of the commands that print a report (lint, test, diff,
 * report); `description` says what each format is for.
 */
export function formatOption<const F extends readonly ['text', ...string[]]>(formats: F, description: string) {
  return { type: 'string', value: 'FORMAT', default: 'text', choices: formats, description } as const;
}
