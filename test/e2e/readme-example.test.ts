import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../..');

/** The README's host example, pointed at this checkout's sources instead of the built package. */
function readmeExample(recordsFile: string): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const match = /<!-- example:host[^>]*-->\s*```ts[^\n]*\n([\s\S]*?)```/.exec(readme);
  if (match?.[1] === undefined) throw new Error('README has no `example:host` block');
  const example = match[1]
    .replace("from 'linkgate'", `from ${JSON.stringify(join(repoRoot, 'src/index.ts'))}`)
    .replace(
      "import.meta.resolve('linkgate/policies/default.yaml')",
      JSON.stringify(pathToFileURL(join(repoRoot, 'policies/default.yaml')).href),
    )
    .replace(
      "fileURLToPath(import.meta.resolve('linkgate/demo-server'))",
      JSON.stringify(join(repoRoot, 'src/demo/demo-server.ts')),
    )
    .replace("{ command: 'node', args: [demoServer] }", "{ command: 'node', args: ['--import', 'tsx', demoServer] }")
    .replace("'linkgate-records.jsonl'", JSON.stringify(recordsFile));
  // every replacement must have matched: the example is run, not a paraphrase of it
  expect(example).not.toContain("'linkgate");
  expect(example).toContain('--import');
  return example;
}

describe('README host example', () => {
  it('runs as written against the demo server and records every link', () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkgate-readme-'));
    const records = join(dir, 'records.jsonl');
    // inside the checkout, so that package imports resolve from its node_modules
    const scratch = join(repoRoot, 'node_modules/.cache/linkgate-readme');
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, `example-${process.pid}.mts`);
    writeFileSync(file, readmeExample(records));
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const printed = run.stdout.trim().split('\n');
    const written = readFileSync(records, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            verdict: string;
            uri: string;
            decisions: { read: { reasons: { code: string }[] } | null };
          },
      );
    expect(printed).toHaveLength(written.length);
    expect(written.length).toBeGreaterThanOrEqual(10);
    expect(new Set(written.map((r) => r.verdict))).toEqual(
      new Set(['body-obtained', 'partially-interpreted', 'link-only', 'unverifiable']),
    );
    expect(printed[0]).toContain(written[0]?.uri);
    // the byte cap follows the policy: the oversize answer is judged, and the links after it are still read
    const oversize = written.findIndex((r) => r.uri === 'demo://linkgate/oversize.png');
    expect(written[oversize]?.verdict).toBe('link-only');
    expect(written[oversize]?.decisions.read?.reasons.map((r) => r.code)).toContain('content.too-large');
    const later = written.slice(oversize + 1);
    expect(later.length).toBeGreaterThan(0);
    for (const r of later) expect(r.decisions.read, r.uri).not.toBeNull();
  }, 120_000);
});
