import { readFile } from 'node:fs/promises';
import { fileReadError } from '../file-read-error.ts';
import { formatDiagnostic, GateError } from '../gate-error.ts';
import { checkPolicyText } from './check-policy.ts';
import type { Policy } from './policy.ts';

/** Parses and validates policy YAML text; throws GateError POLICY_INVALID listing every diagnostic, sorted by line and column. */
export function parsePolicy(text: string, file: string): Policy {
  const { policy, diagnostics } = checkPolicyText(text, file);
  const first = diagnostics.find((d) => d.severity === 'error');
  if (first !== undefined || policy === undefined) {
    const message = first === undefined ? `${file}: the policy could not be loaded` : formatDiagnostic(first);
    throw new GateError('POLICY_INVALID', message, { diagnostics });
  }
  return policy;
}

/** Reads, parses and validates a policy file (named `shownAs` in a read error); never returns a half-loaded policy. */
export async function loadPolicy(file: string, shownAs: string = file): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw fileReadError('POLICY_UNREADABLE', 'policy', shownAs, cause);
  }
  return parsePolicy(text, file);
}
