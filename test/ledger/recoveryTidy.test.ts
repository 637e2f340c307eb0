import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { silentLogger } from '../../src/logger.js';
import { ensureLedgerIndexes } from '../../utils/money/ledger/documents.js';
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems, makeLedger, seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('ledger_recovery_tidy');
const DAY = 86_400_000;

/**
 * A crash between a `$pull` and its `$unset` leaves an empty array on an account. Looking for
 * them reads every account (no index finds an empty array on both servers), so the periodic
 * pass does it once an hour and the others always; old fences are found through their index
 * and each array they empty is unset at once.
 */
describe("the recovery pass's tidying", () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    await ensureLedgerIndexes(t.db);
  });

  it('GIVEN arrays a crash emptied and a fence past its retention THEN a pass without tidying prunes the fence and unsets its array, and a tidying pass unsets the rest', async () => {
    const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
    const old = new Date(clock.now().getTime() - 2 * DAY);
    await t.cols.cookies.insertMany([
      { _id: 'emptied-marker', cookies: 5, pendingOps: [] },
      { _id: 'emptied-fence', cookies: 0, fences: [] },
      { _id: 'old-fence', cookies: 1, fences: [{ op: 'o', att: 'x', at: old }] },
      { _id: 'young-fence', cookies: 2, fences: [{ op: 'p', att: 'y', at: clock.now() }] },
    ]);
    const deps = { cols: t.cols, clock, log: silentLogger };

    const quick = await recoverLedger(deps, { graceMs: 0, fenceRetentionMs: DAY, tidy: false });
    expect(quick.fencesPruned).toBe(1);
    const after = await t.cols.cookies.find({}, { sort: { _id: 1 } }).toArray();
    expect(after.map(({ _id, ...rest }) => [_id, Object.keys(rest).sort()])).toEqual([
      ['emptied-fence', ['cookies', 'fences']],
      ['emptied-marker', ['cookies', 'pendingOps']],
      ['old-fence', ['cookies']],
      ['young-fence', ['cookies', 'fences']],
    ]);

    await recoverLedger(deps, { graceMs: 0, fenceRetentionMs: DAY });
    expect(await t.cols.cookies.countDocuments({ pendingOps: { $exists: true } })).toBe(0);
    expect(await t.cols.cookies.find({ fences: { $exists: true } }).toArray()).toEqual([
      { _id: 'young-fence', cookies: 2, fences: [{ op: 'p', att: 'y', at: clock.now() }] },
    ]);
  });

  it('GIVEN an operation interrupted after its credit THEN a pass without tidying finishes it and leaves no emptied marker list behind', async () => {
    await seedBalance(makeLedger(t.cols), 'ada', 100);
    const crashAfterCredit = {
      step(step: LedgerStep) {
        if (step === 'credit.applied') throw new Error('the process died here');
      },
    };
    await expect(
      makeLedger(t.cols, { hooks: crashAfterCredit }).transfer({
        opId: 'x',
        currency: 'cookies',
        from: 'ada',
        to: 'bo',
        amount: 5,
        kind: 'give',
      }),
    ).rejects.toThrow();
    const clock = new ManualClock(new Date('2026-01-01T01:00:00Z'));
    const report = await recoverLedger(
      { cols: t.cols, clock, log: silentLogger },
      { graceMs: 0, tidy: false },
    );
    expect(report.rolledForward).toBe(1);
    expect(await t.cols.cookies.countDocuments({ pendingOps: { $exists: true } })).toBe(0);
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});
