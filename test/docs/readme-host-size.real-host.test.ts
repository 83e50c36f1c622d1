// The README's claim of how much the real hosts take in the test cache, measured on the installs themselves
// (the real-host project's global set-up put them there; under CI=true a missing host fails, never skips).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { mustRunRealParts } from '../real-host/host-suite.ts';
import { realHosts } from '../real-host/real-parts.ts';

const readme = readFileSync(path.resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('the README host download size', () => {
  test('states the size the real hosts really take, within a quarter', async (ctx) => {
    const stated = /about (\d+) MiB for the (\w+) hosts, ([^;]+?),\s+together/.exec(readme);
    expect(stated?.[1]).toBeDefined();
    // the README names every host the suites install, and counts them right
    const named = (stated?.[3] ?? '').split(/,\s*|\s+and\s+/).map((n) => n.trim().toLowerCase());
    expect(named.map((n) => n.replace(/^codex$/, 'codex cli')).sort()).toEqual(Object.keys(realHosts).sort());
    expect(stated?.[2]).toBe(
      ['one', 'two', 'three', 'four', 'five', 'six', 'seven'][Object.keys(realHosts).length - 1],
    );
    const installs = await Promise.all(
      Object.entries(realHosts).map(async ([label, install]) => [label, await install()] as const),
    );
    const missing = installs.filter(([, i]) => !i.ok).map(([label, i]) => `${label}: ${i.ok ? '' : i.reason}`);
    if (missing.length > 0) {
      if (mustRunRealParts()) throw new Error(`the hosts are required under CI=true: ${missing.join('; ')}`);
      return ctx.skip(`hosts not installed: ${missing.join('; ')}`);
    }
    const folders = installs.map(([, i]) => (i.ok ? i.dir : ''));
    const kib = execFileSync('du', ['-sk', ...folders], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .reduce((sum, line) => sum + Number(line.split('\t')[0]), 0);
    expect(kib).toBeGreaterThan(0);
    const mib = kib / 1024;
    expect(Math.abs(mib - Number(stated?.[1])) / mib).toBeLessThan(0.25);
  });
});
