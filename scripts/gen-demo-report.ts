// Writes the README's demo report from a fresh run of both `npm start` probes (see scripts/demo-report.ts).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { demoReportMarkdown, withDemoReport } from './demo-report.ts';

const readmePath = path.join(path.resolve(import.meta.dirname, '..'), 'README.md');
const readme = await readFile(readmePath, 'utf8');
await writeFile(readmePath, withDemoReport(readme, await demoReportMarkdown()), 'utf8');
process.stdout.write('wrote the demo report in README.md\n');
