// The skip rule of the real-host suites: the host is installed once before a file's tests; when that cannot be
// done (registry unreachable, install failed, unsupported platform) every test of the file skips with the reason.
import { beforeAll, type TestContext } from 'vitest';
import { type HostInstall, installTimeoutMs } from './install-package.ts';

/** A suite's handle on its host: `require(ctx)` gives the installed binary or skips the test with the reason. */
export interface HostSuite {
  require(ctx: TestContext): string;
}

/** Registers a `beforeAll` that installs the host (`label` names it in the skip message). */
export function realHostSuite(label: string, install: () => Promise<HostInstall>): HostSuite {
  let installed: HostInstall = { ok: false, reason: 'the install did not run' };
  beforeAll(async () => {
    installed = await install();
    if (!installed.ok) console.warn(`skipping ${label} tests: ${installed.reason}`);
  }, installTimeoutMs + 60_000);
  return {
    require(ctx) {
      if (installed.ok) return installed.bin;
      return ctx.skip(`${label} is not available: ${installed.reason}`);
    },
  };
}
