import { formatDiagnostic, GateError } from '../errors.ts';
import type { CliIo } from './cli-io.ts';

/** Prints a usage error and returns exit code 2. */
export function usageError(io: CliIo, message: string, usage: string): number {
  io.stderr.write(`linkgate: ${message}\n${usage}\n`);
  return 2;
}

/** Prints a policy or file load error (every located diagnostic as `file:line:col`) and returns exit code 2. */
export function reportLoadError(io: CliIo, error: unknown): number {
  if (error instanceof GateError && error.diagnostics.length > 0) {
    for (const d of error.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  } else {
    io.stderr.write(`linkgate: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  return 2;
}
