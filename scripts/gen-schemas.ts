// Writes schemas/policy.schema.json and schemas/report.schema.json from their zod schemas (`npm run gen:schemas`).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { policyJsonSchemaPath, policyJsonSchemaText } from '../src/policy/policy-json-schema.ts';
import { reportJsonSchemaPath, reportJsonSchemaText } from '../src/report/report-json-schema.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
for (const [file, text] of [
  [policyJsonSchemaPath, policyJsonSchemaText()],
  [reportJsonSchemaPath, reportJsonSchemaText()],
] as const) {
  await writeFile(path.join(repoRoot, file), text, 'utf8');
  process.stdout.write(`wrote ${file}\n`);
}
