// The README's demo report: both probes of `npm start` (server-everything's `get-resource-links`, the demo server's
// `show-links`) as `probe --json`, then `report --format markdown` over the records, headings moved two levels down
// to sit under the README's own. `npx tsx scripts/gen-demo-report.ts` writes it into README.md between the markers;
// test/docs/readme-demo-report.test.ts fails when the README's copy differs from a fresh run.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { formatReportMarkdown } from '../src/report/format-report-markdown.ts';
import { defaultMaxListedLinks, createReportTally } from '../src/report/report-tally.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** The README's markers around the generated block. */
export const demoReportMarkers = { start: '<!-- demo-report:start -->', end: '<!-- demo-report:end -->' } as const;

// one probe, as `npm start` runs it (from source, so no build is needed): its `--json` output
function probe(args: readonly string[], server: readonly string[]): Promise<string> {
  const argv = ['--import', 'tsx', 'src/cli/main.ts', 'probe', '--json', '--policy', 'policies/default.yaml'];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...argv, ...args, '--', ...server],
      { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // the probe exits 0 whatever the verdicts; anything else means no demo run to show
        if (error !== null) reject(new Error(`probe ${args.join(' ')} failed: ${String(stderr).trim()}`));
        else resolve(String(stdout));
      },
    );
  });
}

/** The markdown report of a fresh demo run, as the README shows it (the records file named `records.jsonl`). */
export async function demoReportMarkdown(): Promise<string> {
  const everything = await probe(
    ['--tool', 'get-resource-links', '--args', '{"count":4}'],
    ['node', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'],
  );
  const demo = await probe(['--tool', 'show-links'], [process.execPath, '--import', 'tsx', 'src/demo/demo-server.ts']);
  const tally = createReportTally({ sinceMs: null, servers: [], verdicts: [], maxListed: defaultMaxListedLinks });
  const lines = `${everything}${demo}`.split('\n');
  for (const [i, line] of lines.entries()) tally.addLine('records.jsonl', i + 1, line);
  const markdown = formatReportMarkdown(tally.finish(['records.jsonl']));
  return markdown.replace(/^(#+) /gm, '$1## ');
}

/** `readme` with the block between the markers replaced by `report`; throws when the markers are missing. */
export function withDemoReport(readme: string, report: string): string {
  const start = readme.indexOf(demoReportMarkers.start);
  const end = readme.indexOf(demoReportMarkers.end);
  if (start < 0 || end < start) throw new Error('README.md has no demo-report markers');
  return `${readme.slice(0, start + demoReportMarkers.start.length)}\n\n${report.trimEnd()}\n\n${readme.slice(end)}`;
}

/** The block between the README's markers, as `withDemoReport` writes it. */
export function demoReportIn(readme: string): string {
  const start = readme.indexOf(demoReportMarkers.start);
  const end = readme.indexOf(demoReportMarkers.end);
  if (start < 0 || end < start) throw new Error('README.md has no demo-report markers');
  return `${readme.slice(start + demoReportMarkers.start.length, end).trim()}\n`;
}
