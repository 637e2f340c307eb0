import { defineConfig } from 'vitest/config';

/** Files that replace a module with `vi.mock`: each runs with modules of its own. */
const MOCKING = ['test/cookies/serverLeaderboard.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One database server for the whole run; files are isolated by database name.
    fileParallelism: true,
    maxWorkers: 2,
    // Processes the tests start serve no web page unless a test gives them a port of their own.
    env: { HTTP_PORT: '0' },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: MOCKING,
          // A worker keeps the modules it loaded from one file to the next: each file still
          // builds its own deps, database and clock, and importing the bot once per worker
          // instead of once per file saves a fifth of the suite's time.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'mocking', include: MOCKING } },
    ],
  },
});
