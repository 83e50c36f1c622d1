// Writes schemas/policy.schema.json from the zod policy schema (`npm run gen:schemas`).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { policyJsonSchemaPath, policyJsonSchemaText } from '../src/policy/policy-json-schema.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const target = path.join(repoRoot, policyJsonSchemaPath);
await writeFile(target, policyJsonSchemaText(), 'utf8');
process.stdout.write(`wrote ${policyJsonSchemaPath}\n`);
