// Writes the docs generated from code (`npm run gen:docs`): the CLI reference, the reason-code catalogue, the policy reference.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generatedDocs } from './generated-docs.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
for (const [file, text] of Object.entries(generatedDocs())) {
  await mkdir(path.dirname(path.join(repoRoot, file)), { recursive: true });
  await writeFile(path.join(repoRoot, file), text, 'utf8');
  process.stdout.write(`wrote ${file}\n`);
}
