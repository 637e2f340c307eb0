import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { silentLogger } from '../../src/logger.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems, makeLedger, seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('ledger_compensation');

function failingAt(...steps: LedgerStep[]) {
  return {
    step(step: LedgerStep) {
      if (steps.includes(step)) throw new Error(`injected failure at ${step}`);
    },
  };
}

async function seed(): Promise<void> {
  await seedBalance(makeLedger(t.cols), 'kim', 100);
}

const GIVE = { opId: 'give', currency: 'cookies', from: 'kim', to: 'lou', amount: 40, kind: 'give' } as const;

describe('ledger compensation', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a credit that fails THEN the source gets its cookies back and nothing is recorded', async () => {
    const ledger = makeLedger(t.cols, { hooks: failingAt('credit.before') });
    await seed();
    await expect(ledger.transfer(GIVE)).rejects.toThrow('injected failure at credit.before');
    await ledger.flush();
    expect(await ledger.balanceOf('cookies', 'kim')).toBe(100);
    expect(await t.cols.cookies.findOne({ _id: 'lou' })).toBeNull();
    expect(await t.cols.ledgerEvents.countDocuments({ opId: 'give' })).toBe(0);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a failing compensation THEN it is recorded as stuck, reported, and finished by recovery', async () => {
    const ledger = makeLedger(t.cols, { hooks: failingAt('credit.before', 'compensation.started') });
    await seed();
    // The debit is still held until recovery returns it: the caller is told to retry, not "failed".
    await expect(ledger.transfer(GIVE)).rejects.toThrow('OPERATION_IN_PROGRESS');
    await ledger.flush();

    expect(await ledger.balanceOf('cookies', 'kim')).toBe(60);
    const stuck = await t.cols.ledgerStuckOps.find({ resolvedAt: null }).toArray();
    expect(stuck.map((s) => s.opId)).toEqual(['give']);
    const before = await checkInvariants(t.cols);
    expect(before.ok).toBe(false);
    expect(before.problems.join('\n')).toContain('stuck operation give');

    // A long grace period does not hold back an operation recorded as stuck.
    const clock = new ManualClock(new Date('2026-01-01T00:00:01Z'));
    const report = await recoverLedger({ cols: t.cols, clock, log: silentLogger }, { graceMs: 3_600_000 });
    expect(report).toMatchObject({ rolledBack: 1, stuck: [] });
    expect(await ledger.balanceOf('cookies', 'kim')).toBe(100);
    expect((await t.cols.ledgerStuckOps.findOne({ opId: 'give' }))?.resolution).toBe('rolledBack');
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN an interrupted operation younger than the grace period THEN recovery leaves it to its process', async () => {
    const ledger = makeLedger(t.cols, { hooks: failingAt('credit.applied') });
    await seed();
    await expect(ledger.transfer(GIVE)).rejects.toThrow();
    const young = new ManualClock(new Date('2026-01-01T00:00:10Z'));
    const skipped = await recoverLedger(
      { cols: t.cols, clock: young, log: silentLogger },
      { graceMs: 60_000 },
    );
    expect(skipped).toMatchObject({ examined: 1, skippedRecent: 1, rolledForward: 0 });
    const old = new ManualClock(new Date('2026-01-01T00:02:00Z'));
    const finished = await recoverLedger(
      { cols: t.cols, clock: old, log: silentLogger },
      { graceMs: 60_000 },
    );
    expect(finished).toMatchObject({ examined: 1, rolledForward: 1 });
    expect(await ledger.balanceOf('cookies', 'lou')).toBe(40);
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});
