import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { reportJsonSchemaPath, reportJsonSchemaText } from '../../src/report/report-json-schema.ts';
import { reportCommand } from '../../src/cli/report-command.ts';
import { runCommand } from '../helpers/run-cli.ts';
import { deny, obtainedRecord } from '../record/record-fixtures.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('schemas/report.schema.json', () => {
  test('matches the zod source (run `npm run gen:schemas` after changing src/report/report-counts.ts)', async () => {
    const committed = await readFile(path.join(repoRoot, reportJsonSchemaPath), 'utf8');
    expect(committed, 'schemas/report.schema.json drifted from the zod schema: run `npm run gen:schemas`').toBe(
      reportJsonSchemaText(),
    );
  });

  test('a json report validates against it (ajv, a draft-07 validator); a report missing a count does not', async () => {
    const schema = JSON.parse(reportJsonSchemaText()) as Record<string, unknown>;
    const validate = new Ajv({ strict: false }).compile(schema);
    const denied = { ...obtainedRecord(), verdict: 'link-only', decisions: { link: deny(), read: null } };
    const stdin = [obtainedRecord(), denied, { kind: 'embedded', verdict: 'embedded-delivered' }]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const run = await runCommand(reportCommand, ['--format', 'json'], { stdin: `${stdin}\nbad\n` });
    const json = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const { skipped: _skipped, ...missing } = json;
    expect(validate(missing)).toBe(false);
  });
});
