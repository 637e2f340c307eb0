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
    // Processes the tests start serve no web page unless a test gives them a port of their own.
    env: { HTTP_PORT: '0' },
  },
});
