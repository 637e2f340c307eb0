import { describe, expect, inject, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/nodeProcess.js';
import { runOutage } from '../support/outageRun.js';

/** The short round of `npm run test:outage`: the database away for 5 s instead of 30. */
describe('the bot through a database outage', () => {
  it(
    'GIVEN the database away WHEN members and the web keep asking THEN everyone is answered, the process stays up, and once it is back the holds end and the books are clean',
    async () => {
      const report = await runOutage({
        uri: inject('mongoUri'),
        dbName: `outage_${Date.now()}`,
        downMs: 5_000,
        httpPort: 32_000 + (process.pid % 2_000),
      });
      expect(report.processUp).toBe(true);
      expect(report.asked).toBeGreaterThan(5);
      expect(report.answered).toBe(report.asked);
      expect(report.texts.some((text) => text.includes('The bank'))).toBe(true);
      expect(report.texts.some((text) => text.includes('Die Bank'))).toBe(true);
      expect(report.apiRefusedWithRetryAfter).toBeGreaterThan(0);
      expect(report.healthSaidDown).toBe(true);
      expect(report.stuckHolds).toBe(0);
      expect(report.books).toBe('clean');
      expect(report.refusals).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
