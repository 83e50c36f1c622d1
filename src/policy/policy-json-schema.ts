import { z } from 'zod';
import { policySchema } from './policy-schema.ts';

/** Repository path of the generated schema, relative to the repository root. */
export const policyJsonSchemaPath = 'schemas/policy.schema.json';

type JsonObject = { [key: string]: unknown };

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Gives every property without a title its key as title, so editors show a heading on hover. */
function addTitles(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(addTitles);
    return;
  }
  if (!isObject(node)) return;
  const properties = node.properties;
  if (isObject(properties)) {
    for (const [key, property] of Object.entries(properties)) {
      if (isObject(property) && property.title === undefined) property.title = key;
    }
  }
  for (const value of Object.values(node)) addTitles(value);
}

/** The policy JSON Schema (draft-07) generated from the zod schema, the single source of truth. */
export function policyJsonSchema(): JsonObject {
  const schema = z.toJSONSchema(policySchema, { target: 'draft-7' }) as JsonObject;
  addTitles(schema);
  return schema;
}

/** The text of `schemas/policy.schema.json`: two-space indented JSON with a trailing newline; the same for the same zod source. */
export function policyJsonSchemaText(): string {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}\n`;
}
