import { describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS, runNode } from '../support/nodeProcess.js';

describe('a failure nothing handled', () => {
  it.each([
    [
      'a rejection nobody awaited',
      'rejection',
      'process.unhandled_rejection',
      'a write nobody awaited failed',
    ],
    ['an exception nobody caught', 'exception', 'process.uncaught_exception', 'JSON'],
  ])(
    'GIVEN %s THEN it is logged at fatal with its error and the process exits 1 for its supervisor',
    async (_, kind, event, message) => {
      const run = await runNode(['test/support/unhandledChild.ts', kind], {
        captureStderr: true,
        killAfterMs: 60_000,
        env: { LOG_LEVEL: 'info' },
      });
      expect(run.signal).toBeNull();
      expect(run.code).toBe(1);
      const fatal = run.stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; event?: string; err?: { message?: string } })
        .find((line) => line.event === event);
      expect(fatal?.level).toBe(60);
      expect(fatal?.err?.message).toContain(message);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
