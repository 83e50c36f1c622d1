// PLACEHOLDER: the policy helper replaces this with located (file:line:col) diagnostics. Signatures are the contract.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { GateError } from '../gate-error.ts';
import { buildPolicy, type Policy } from './policy.ts';
import { policySchema } from './policy-schema.ts';

/** Parses and validates policy YAML text; throws GateError POLICY_INVALID listing every diagnostic. */
export function parsePolicy(text: string, file: string): Policy {
  const parsed = policySchema.safeParse(parse(text));
  if (!parsed.success) throw new GateError('POLICY_INVALID', `${file}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return buildPolicy(parsed.data, file);
}

/** Reads, parses and validates a policy file; never returns a half-loaded policy. */
export async function loadPolicy(file: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new GateError('POLICY_UNREADABLE', `cannot read policy \`${file}\``, { cause });
  }
  return parsePolicy(text, file);
}
