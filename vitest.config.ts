import { configDefaults, defineConfig } from 'vitest/config';

// suites that run a real part (the Claude Code, Codex and Gemini CLI binaries, the agent frameworks): a host run takes
// seconds and a first install minutes, so they get their own project, timeouts and a global set-up that installs
// every pinned part into the test cache before the first test (never inside the unit run); the harness lives in
// test/real-host/, and under CI=true a suite whose part is missing fails (host-suite.ts)
const realHost = [
  'test/real-host/**/*.test.ts',
  'test/**/*.real-host.test.ts',
  'test/frameworks/**/*.test.ts',
  'test/doctor/doctor-real-hosts.test.ts',
];

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
          globalSetup: ['test/real-host/install-real-parts.ts'],
          // one host run, with room for a loaded machine; the run itself is killed at its own timeoutMs
          testTimeout: 180_000,
          // a beforeAll that installs a part the global set-up did not (install-package.ts caps it at 10 minutes)
          hookTimeout: 11 * 60_000,
        },
      },
    ],
  },
});
