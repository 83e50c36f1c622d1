import { createHash } from 'node:crypto';

/** Canonical JSON: object keys sorted by code unit, no whitespace, `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** `sha256:<hex>` of the canonical JSON of a validated policy document: equal meaning, equal digest, whatever the YAML layout. */
export function policyDigest(document: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(document)).digest('hex')}`;
}
