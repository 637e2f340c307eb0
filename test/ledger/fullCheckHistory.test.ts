import { beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { seededRng } from '../../src/rng.js';
import { holdProblems } from '../../utils/money/holds/invariants.js';
import { InvariantCheckpoint } from '../../utils/money/ledger/invariants.js';
import { Ledger } from '../../utils/money/ledger/ledger.js';
import { useTestDatabase } from '../support/database.js';
import { MEMBERS, writeRoundHistory } from '../support/roundHistory.js';

const t = useTestDatabase('full_check_history');
const ROUNDS = 3_000;

/**
 * The full check over a history longer than one part of every read (256 holds, a cursor's
 * batches): what `npm run bench:full-check` measures at half a million rounds.
 */
describe('the full check over a long history of game rounds', () => {
  const ledger = () =>
    new Ledger({
      cols: t.cols,
      clock: systemClock,
      rng: seededRng('full'),
      log: silentLogger,
      config: loadConfig({}).ledger,
    });

  beforeAll(async () => {
    await writeRoundHistory(t.db, t.cols, ROUNDS);
  });

  it('GIVEN 3,000 rounds, each a hold filled and emptied THEN the ledger and the holds check find nothing, holding the members and the house, not every hold', async () => {
    const checkpoint = new InvariantCheckpoint(t.cols);
    const report = await checkpoint.check();
    expect(report.problems).toEqual([]);
    expect(report.events).toBe(ROUNDS * 4 + MEMBERS);
    expect(checkpoint.accountsKept).toBe(MEMBERS + 1);
    expect(checkpoint.peakKept).toBeLessThanOrEqual(MEMBERS + 3);
    expect(await holdProblems(t.db, ledger(), new Date(), 0)).toEqual([]);
  });

  it('GIVEN a hold near the end whose account kept its stake THEN both checks name it', async () => {
    await t.cols.cookies.updateOne({ _id: 'hold:h2900' }, { $set: { cookies: 5 } });
    try {
      expect((await new InvariantCheckpoint(t.cols).check()).problems).toContain(
        'cookies/hold:h2900: stored balance 5, events explain 0',
      );
      expect(await holdProblems(t.db, ledger(), new Date(), 0)).toEqual([
        'hold h2900 (game r2900): posted, but its account still holds 5',
      ]);
    } finally {
      await t.cols.cookies.updateOne({ _id: 'hold:h2900' }, { $set: { cookies: 0 } });
    }
  });
});
