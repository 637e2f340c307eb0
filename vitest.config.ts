import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One database server for the whole run; files are isolated by database name.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
