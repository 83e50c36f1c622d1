import { errorText, isError } from '../decision/error-line.ts';
import { GateError } from '../errors.ts';
import type { CliIo } from './cli-io.ts';

// How `linkgate hook` words a failure: one line on stderr, exit 2.

/** One line: the first diagnostic of a policy error (file:line:col), else the message. */
export function failureLine(error: unknown): string {
  let line: string;
  // never throws, whatever was thrown: this line is what the fail-closed answer says
  if (isError(error) && error instanceof GateError && error.diagnostics.length > 0) {
    const d = error.diagnostics[0];
    line = d === undefined ? error.message : `${d.file}:${d.line}:${d.col}: ${d.message}`;
  } else line = errorText(error);
  return line.replace(/\s+/g, ' ').trim();
}

/** Says why on stderr and gives exit 2, the code every host treats as a block. */
export function failClosed(io: CliIo, error: unknown): number {
  io.stderr.write(`linkgate hook: ${failureLine(error)}\n`);
  return 2;
}
