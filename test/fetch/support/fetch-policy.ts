import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { buildPolicy, type Policy } from '../../../src/policy/policy.ts';
import { policySchema, type PolicyDocument } from '../../../src/policy/policy-schema.ts';

const fixture = path.resolve(import.meta.dirname, '../../fixtures/policies/fetch-loopback.yaml');

/** Changes to the fixture policy: the loopback origins to exempt, and sections to override. */
export interface PolicyChanges {
  origins: readonly string[];
  links?: Partial<PolicyDocument['links']>;
  read?: Partial<PolicyDocument['read']>;
  credentials?: Partial<PolicyDocument['credentials']>;
  fetch?: Partial<NonNullable<PolicyDocument['fetch']>> | null;
}

/** The fixture policy with the tests' exact loopback origins exempt from the address rules; validated by the one schema. */
export function fetchPolicy(changes: PolicyChanges): Policy {
  const document = parse(readFileSync(fixture, 'utf8')) as PolicyDocument;
  document.links = { ...document.links, ...changes.links, allowNonPublicOrigins: [...changes.origins] };
  document.read = { ...document.read, ...changes.read };
  document.credentials = { ...document.credentials, ...changes.credentials };
  if (changes.fetch === null) delete document.fetch;
  else if (changes.fetch !== undefined && document.fetch !== undefined)
    document.fetch = { ...document.fetch, ...changes.fetch };
  return buildPolicy(policySchema.parse(document), fixture);
}

/** The exact origin of a loopback server for a host name. */
export function originOf(scheme: 'http' | 'https', host: string, port: number): string {
  return new URL(`${scheme}://${host}:${port}`).origin;
}

/** A resolver from a fixed table; a name not listed does not resolve. */
export function tableResolver(
  table: Readonly<Record<string, readonly string[]>>,
): (name: string) => Promise<readonly string[]> {
  return async (name) => {
    const answers = table[name.toLowerCase()] ?? table[name.toLowerCase().replace(/\.$/, '')];
    if (answers === undefined) throw new Error(`name \`${name}\` is not in the test table`);
    return answers;
  };
}
