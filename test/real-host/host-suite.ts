// The skip rule of the real-host suites: the host is installed once before a file's tests; when that cannot be
// done (registry unreachable, install failed, unsupported platform) every test of the file skips with the reason,
// except under CI=true, where a suite that cannot run its real part fails naming what is missing (a green CI must
// mean the real hosts ran). The suite also owns the file's temporary folders and runs, removed after its tests.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { type HostInstall, installTimeoutMs } from './install-package.ts';

/** A suite's handle on its host and on what its tests leave behind. */
export interface HostSuite {
  /** the installed binary, or skips the test with the reason */
  require(ctx: TestContext): string;
  /** a fresh temporary folder, removed after the file's tests */
  scratch(prefix: string): Promise<string>;
  /** runs `cleanup` after the file's tests (e.g. a host run's own folder) */
  defer(cleanup: () => Promise<void>): void;
}

/** Whether a suite whose real part is missing must fail instead of skipping: under `CI=true`. */
export function mustRunRealParts(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['CI'] === 'true';
}

/** Registers a `beforeAll` that installs the host (`label` names it in the skip message) and an `afterAll` that cleans up. */
export function realHostSuite(label: string, install: () => Promise<HostInstall>): HostSuite {
  let installed: HostInstall = { ok: false, reason: 'the install did not run' };
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    installed = await install();
    if (installed.ok) return;
    if (mustRunRealParts())
      throw new Error(`${label} is required under CI=true and is not available: ${installed.reason}`);
    console.warn(`skipping ${label} tests: ${installed.reason}`);
  }, installTimeoutMs + 60_000);
  afterAll(async () => {
    await Promise.all(cleanups.map((c) => c()));
  });
  return {
    require(ctx) {
      if (installed.ok) return installed.bin;
      return ctx.skip(`${label} is not available: ${installed.reason}`);
    },
    async scratch(prefix) {
      const dir = await mkdtemp(path.join(tmpdir(), prefix));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return dir;
    },
    defer(cleanup) {
      cleanups.push(cleanup);
    },
  };
}

/** Registers a `beforeAll` that builds the CLI when `dist/` lacks it: hook settings run the built CLI, as an installed package would. */
export function builtCli(): void {
  beforeAll(() => {
    if (!existsSync(cliEntry())) execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
  }, 180_000);
}
