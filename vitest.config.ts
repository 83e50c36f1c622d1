import { configDefaults, defineConfig } from 'vitest/config';

// suites that run a real host (Claude Code, Gemini CLI): a host run takes seconds and a first install up to
// minutes, so they get their own timeouts; the harness lives in test/real-host/
const realHost = ['test/real-host/**/*.test.ts', 'test/**/*.real-host.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    // every fast-check property prints a replayable seed; FC_SEED replays it
    setupFiles: ['test/setup/fast-check.ts'],
    // the json report feeds .ci/run's closing `N passed, N failed` line
    reporters: ['default', ['json', { outputFile: '.vitest-result.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...realHost],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'real-host',
          include: realHost,
          // one host run, with room for a loaded machine; the run itself is killed at its own timeoutMs
          testTimeout: 180_000,
          // the beforeAll that installs the host into the cache (install-package.ts caps it at 10 minutes)
          hookTimeout: 11 * 60_000,
        },
      },
    ],
  },
});
