import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { policyJsonSchema, policyJsonSchemaPath, policyJsonSchemaText } from '../../src/policy/policy-json-schema.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

type Schema = { [key: string]: unknown };

/** Every schema with `properties`, with its path, found anywhere in the document. */
function objectSchemas(node: unknown, at = '#'): [string, Schema][] {
  if (node === null || typeof node !== 'object') return [];
  const here: [string, Schema][] = 'properties' in node ? [[at, node]] : [];
  return [...here, ...Object.entries(node).flatMap(([k, v]) => objectSchemas(v, `${at}/${k}`))];
}

describe('schemas/policy.schema.json', () => {
  test('matches the zod source (run `npm run gen:schemas` after changing src/policy/policy-schema.ts)', async () => {
    const committed = await readFile(path.join(repoRoot, policyJsonSchemaPath), 'utf8');
    expect(committed, 'schemas/policy.schema.json drifted from the zod schema: run `npm run gen:schemas`').toBe(
      policyJsonSchemaText(),
    );
  });

  test('is draft-07, closed, with a trailing newline', () => {
    const schema = policyJsonSchema();
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.additionalProperties).toBe(false);
    expect(policyJsonSchemaText().endsWith('}\n')).toBe(true);
  });

  test('generation is deterministic', () => {
    expect(policyJsonSchemaText()).toBe(policyJsonSchemaText());
  });

  test('every property has a title and a description for editor hover', () => {
    const bare = objectSchemas(policyJsonSchema()).flatMap(([at, schema]) =>
      Object.entries(schema.properties as Record<string, Schema>)
        .filter(([, p]) => typeof p.title !== 'string' || typeof p.description !== 'string')
        .map(([name]) => `${at}/properties/${name}`),
    );
    expect(bare).toEqual([]);
  });

  test('limits are whole numbers of at least 1', () => {
    const read = (policyJsonSchema().properties as Record<string, Schema>).read as Schema;
    expect((read.properties as Record<string, Schema>).maxBytes).toMatchObject({ type: 'integer', minimum: 1 });
  });
});
