import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedDocs } from '../../scripts/generated-docs.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('generated docs', () => {
  it.each(Object.keys(generatedDocs()))('%s matches the code (run `npm run gen:docs` after a change)', (file) => {
    expect(readFileSync(path.join(repoRoot, file), 'utf8')).toBe(generatedDocs()[file]);
  });
});
