import { defineConfig } from 'vitest/config';

// long runs behind `npm run test:soak`; the default config (test/**/*.test.ts) never includes them
export default defineConfig({
  test: {
    // every fast-check property prints a replayable seed; FC_SEED replays it
    setupFiles: ['test/setup/fast-check.ts'],
    include: ['test/soak/**/*.soak.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a full gc between rounds makes the heap figures comparable
    execArgv: ['--expose-gc'],
  },
});
