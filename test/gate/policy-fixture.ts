import { buildPolicy, type Policy } from '../../src/policy/policy.ts';
import { policySchema, type PolicyDocument } from '../../src/policy/policy-schema.ts';

/** A policy document like `policies/default.yaml`, written here so tests do not depend on the shipped drafts. */
export const baseDocument: PolicyDocument = {
  id: 'test',
  version: '1.0.0',
  review: { reviewers: ['tests'], date: '2026-01-01', ticket: 'T-1', expires: '2027-01-01' },
  links: {
    schemes: ['https', 'http'],
    customSchemes: 'allow',
    requireSameServer: true,
    denyNonPublicAddresses: true,
    maxDeclaredBytes: 1024,
    denyDeclaredTypes: true,
  },
  credentials: { forward: 'same-origin' },
  read: { readTimeoutMs: 1000, maxBytes: 1024, maxItems: 4 },
  content: { allow: ['text/plain', 'image/png'] },
};

/** Builds a validated policy from the base document with some sections replaced. */
export function testPolicy(
  overrides: {
    links?: Partial<PolicyDocument['links']>;
    credentials?: Partial<PolicyDocument['credentials']>;
    rules?: PolicyDocument['rules'];
  } = {},
): Policy {
  const document = policySchema.parse({
    ...baseDocument,
    links: { ...baseDocument.links, ...overrides.links },
    credentials: { ...baseDocument.credentials, ...overrides.credentials },
    ...(overrides.rules === undefined ? {} : { rules: overrides.rules }),
  });
  return buildPolicy(document, '<test>');
}
