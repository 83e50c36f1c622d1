// Writes src/link/top-level-table.ts from the lists of top-level labels (`npx tsx scripts/gen-top-level-table.ts`).
import { writeFile } from 'node:fs/promises';
import { topLevelTableFile, topLevelTableSource } from './top-level-table.ts';

await writeFile(topLevelTableFile, topLevelTableSource());
process.stderr.write(`wrote ${topLevelTableFile}\n`);
