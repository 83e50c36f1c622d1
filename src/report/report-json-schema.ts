import { z } from 'zod';
import { reportCountsSchema } from './report-counts.ts';

/** Repository path of the generated schema of `linkgate report --format json`, relative to the repository root. */
export const reportJsonSchemaPath = 'schemas/report.schema.json';

/** The text of `schemas/report.schema.json` (draft-07, from the zod schema): two-space indented with a trailing newline. */
export function reportJsonSchemaText(): string {
  const schema = z.toJSONSchema(reportCountsSchema, { target: 'draft-7' }) as Record<string, unknown>;
  return `${JSON.stringify({ ...schema, title: 'linkgate report --format json' }, null, 2)}\n`;
}
