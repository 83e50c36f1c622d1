import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoLinks } from '../../src/demo/demo-server.ts';

const repoRoot = resolve(import.meta.dirname, '../..');

/** The README's OpenTelemetry example, pointed at this checkout's sources instead of the built package. */
function otelExample(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const match = /<!-- example:otel[^>]*-->\s*```ts[^\n]*\n([\s\S]*?)```/.exec(readme);
  if (match?.[1] === undefined) throw new Error('README has no `example:otel` block');
  return match[1]
    .replace("from 'linkgate'", `from ${JSON.stringify(join(repoRoot, 'src/index.ts'))}`)
    .replace(
      "args: ['dist/lib/demo/demo-server.js']",
      `args: ['--import', 'tsx', ${JSON.stringify(join(repoRoot, 'src/demo/demo-server.ts'))}, '--slow-ms', '10']`,
    );
}

describe('README OpenTelemetry example', () => {
  it('runs as written and prints one linkgate.link span per link beside the host span', () => {
    const scratch = join(repoRoot, 'node_modules/.cache/linkgate-readme');
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, `otel-example-${process.pid}.mts`);
    writeFileSync(file, otelExample());
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const linkSpans = run.stdout.split("name: 'linkgate.link'").length - 1;
    expect(linkSpans).toBe(demoLinks.length);
    expect(run.stdout).toContain("name: 'tools/call show-links'");
    expect(run.stdout).toContain("'linkgate.verdict': 'body-obtained'");
  });
});
