import { defineConfig } from 'vitest/config';

// long runs behind `npm run test:soak`; the default config (test/**/*.test.ts) never includes them
export default defineConfig({
  test: {
    include: ['test/soak/**/*.soak.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a full gc between rounds makes the heap figures comparable
    execArgv: ['--expose-gc'],
  },
});
