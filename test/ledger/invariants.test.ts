import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { OperationSpec } from '../../utils/money/ledger/documents.js';
import { checkInvariants, InvariantCheckpoint } from '../../utils/money/ledger/invariants.js';
import type { LedgerHooks, LedgerStep } from '../../utils/money/ledger/ledger.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems, makeLedger, seedBalance } from '../support/ledgerHarness.js';
import { PROCESS_TEST_TIMEOUT_MS, runNode } from '../support/nodeProcess.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('invariants');

describe('the invariant checker', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    const ledger = makeLedger(t.cols);
    await seedBalance(ledger, 'ada', 100);
    await ledger.transfer({
      opId: 'give',
      currency: 'cookies',
      from: 'ada',
      to: 'bo',
      amount: 30,
      kind: 'give',
    });
    await ledger.credit({
      opId: 'earn',
      currency: 'place',
      account: 'ada',
      amount: 5_000,
      kind: 'place.score',
    });
    await ledger.flush();
  });

  it('GIVEN only ledger writes THEN it finds nothing and reports the supply', async () => {
    const report = await checkInvariants(t.cols);
    expect(report.problems).toEqual([]);
    expect(report.totals.cookies).toEqual({ balances: 100, minted: 100, burned: 0, accounts: 2 });
    expect(report.events).toBe(4);
  });

  it('GIVEN balances changed behind the ledger THEN it lists every difference', async () => {
    await t.cols.cookies.updateOne({ _id: 'bo' }, { $inc: { cookies: 5 } });
    await t.cols.cookies.insertOne({ _id: 'ghost', cookies: -3 });
    await t.cols.placeWallets.updateOne({ _id: 'ada' }, { $set: { earned: 1 } });
    await t.cols.cookies.updateOne({ _id: 'ada' }, { $set: { pendingOps: [] } });
    const report = await checkInvariants(t.cols);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      'cookies/ada: 0 operation marker(s) left (pendingOps present)',
      'cookies/bo: stored balance 35, events explain 30',
      'cookies/ghost: negative balance -3',
      'cookies/ghost: stored balance -3, events explain 0',
      'place/ada: stored earned 1, events explain 5000',
      'cookies: balances total 102, minted 100 - burned 0 = 100',
    ]);
  });

  it('npm run check:invariants prints each difference and exits 1', {
    timeout: PROCESS_TEST_TIMEOUT_MS,
  }, async () => {
    await t.cols.cookies.updateOne({ _id: 'bo' }, { $inc: { cookies: 5 } });
    const { code, stdout } = await runNode(['app/checkInvariants.ts'], {
      env: { MONGODB_URI: t.uri, MONGODB_DB_NAME: t.name, LOG_LEVEL: 'warn' },
    });
    expect(stdout).toContain('DIFFERENCE cookies/bo: stored balance 35, events explain 30');
    expect(stdout).toContain('invariants: 2 difference(s)');
    expect(code).toBe(1);
  });

  it('GIVEN a long history of pots each filled and emptied THEN the full check holds only the accounts in use at once, and still names a pot left holding something', async () => {
    const ledger = makeLedger(t.cols);
    const pots = 60;
    for (let i = 0; i < pots; i++) {
      const pot = `pot:round-${i}`;
      await ledger.transfer({
        opId: `stake-${i}`,
        currency: 'cookies',
        from: 'ada',
        to: pot,
        amount: 1,
        kind: 'stake',
      });
      await ledger.transfer({
        opId: `pay-${i}`,
        currency: 'cookies',
        from: pot,
        to: 'bo',
        amount: 1,
        kind: 'payout',
      });
    }
    await ledger.flush();
    const checkpoint = new InvariantCheckpoint(t.cols);
    expect((await checkpoint.check()).problems).toEqual([]);
    // ada, bo and the wallet (from beforeEach), one pot and its transfer's first leg: not every pot and every transfer.
    expect(checkpoint.peakKept).toBeLessThanOrEqual(5);
    expect(checkpoint.accountsKept).toBe(3);
    await t.cols.cookies.updateOne({ _id: 'pot:round-7' }, { $inc: { cookies: 4 } });
    expect((await checkpoint.check()).problems).toEqual([
      'cookies/pot:round-7: stored balance 4, events explain 0',
      'cookies: balances total 104, minted 100 - burned 0 = 100',
    ]);
  });
});

/** A ledger on a clock that days pass on, and its daily check: each call checks up to now. */
function dayByDay(hooks?: LedgerHooks) {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  const ledger = makeLedger(t.cols, { clock, ...(hooks ? { hooks } : {}) });
  const checkpoint = new InvariantCheckpoint(t.cols);
  const until = () => new Date(clock.now().getTime() + 1);
  return { clock, ledger, checkpoint, until };
}

describe("the invariant check from a checkpoint (the simulation's daily check)", () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN three days of transfers, each checked from the last checkpoint THEN each report equals the full check, and a balance changed behind the ledger on day 3 is found', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const ledger = makeLedger(t.cols, { clock });
    const checkpoint = new InvariantCheckpoint(t.cols);
    await seedBalance(ledger, 'ada', 1_000);
    for (let day = 1; day <= 3; day++) {
      for (let i = 0; i < 5; i++) {
        clock.advance(3_600_000);
        await ledger.transfer({
          opId: `give-${day}-${i}`,
          currency: 'cookies',
          from: i % 2 === 0 ? 'ada' : 'bo',
          to: i % 2 === 0 ? 'bo' : 'cy',
          amount: 10,
          kind: 'give',
        });
      }
      await ledger.flush();
      if (day === 3) await t.cols.cookies.updateOne({ _id: 'cy' }, { $inc: { cookies: 7 } });
      const daily = await checkpoint.check(new Date(clock.now().getTime() + 1));
      const full = await checkInvariants(t.cols);
      expect(daily).toEqual(full);
      expect(daily.problems).toEqual(
        day === 3
          ? [
              'cookies/cy: stored balance 67, events explain 60',
              'cookies: balances total 1007, minted 1000 - burned 0 = 1000',
            ]
          : [],
      );
    }
  });

  it('GIVEN a balance changed behind the ledger on accounts no event touched since the last check THEN the daily check, which reads only its day, does not see it; the full check names it, and so does the first daily check after an event touches the account', async () => {
    const { clock, ledger, checkpoint, until } = dayByDay();
    await seedBalance(ledger, 'ada', 1_000);
    await seedBalance(ledger, 'quiet', 50);
    await ledger.credit({
      opId: 'pts',
      currency: 'place',
      account: 'quiet',
      amount: 9_000,
      kind: 'place.score',
    });
    await ledger.flush();
    expect((await checkpoint.check(until())).problems).toEqual([]);
    // A day in which only ada and bo trade; 'quiet' changes only behind the ledger's back.
    clock.advance(3_600_000);
    await ledger.transfer({
      opId: 'g',
      currency: 'cookies',
      from: 'ada',
      to: 'bo',
      amount: 10,
      kind: 'give',
    });
    await ledger.flush();
    await t.cols.cookies.updateOne({ _id: 'quiet' }, { $inc: { cookies: -20 } });
    await t.cols.placeWallets.updateOne({ _id: 'quiet' }, { $inc: { spent: 3 } });
    expect((await checkpoint.check(until())).problems).toEqual([]);
    expect(await booksProblems(t.cols)).toEqual([
      'cookies/quiet: stored balance 30, events explain 50',
      'place/quiet: stored spent 3, events explain 0',
      'cookies: balances total 1030, minted 1050 - burned 0 = 1050',
    ]);
    // The next day 'quiet' gives: its account is compared, and everything is read again.
    clock.advance(86_400_000);
    await ledger.transfer({
      opId: 'q',
      currency: 'cookies',
      from: 'quiet',
      to: 'bo',
      amount: 5,
      kind: 'give',
    });
    await ledger.flush();
    const daily = await checkpoint.check(until());
    expect(daily).toEqual(await checkInvariants(t.cols));
    expect(daily.problems).toEqual([
      'cookies/quiet: stored balance 25, events explain 45',
      'place/quiet: stored spent 3, events explain 0',
      'cookies: balances total 1030, minted 1050 - burned 0 = 1050',
    ]);
    expect(checkpoint.rereads).toBe(1);
  });

  it('GIVEN a leg applied on an account no event of the day touched, its operation still in flight (a process stopped after its debit) THEN the daily check finds its marker through the index and names it after reading everything again', async () => {
    const { clock, ledger, checkpoint, until } = dayByDay();
    await seedBalance(ledger, 'ada', 1_000);
    await seedBalance(ledger, 'quiet', 50);
    await ledger.flush();
    expect((await checkpoint.check(until())).problems).toEqual([]);
    clock.advance(3_600_000);
    // A second process that stops for good once its debit of 'quiet' applied.
    const stopped = makeLedger(t.cols, {
      clock,
      hooks: { step: (step) => (step === 'debit.applied' ? new Promise(() => {}) : undefined) },
    });
    void stopped.transfer({
      opId: 'stuck',
      currency: 'cookies',
      from: 'quiet',
      to: 'bo',
      amount: 7,
      kind: 'give',
    });
    await waitFor(async () => (await t.cols.cookies.findOne({ _id: 'quiet' }))?.pendingOps?.length === 1);
    await ledger.transfer({
      opId: 'g',
      currency: 'cookies',
      from: 'ada',
      to: 'bo',
      amount: 10,
      kind: 'give',
    });
    await ledger.flush();
    const daily = await checkpoint.check(until());
    expect(daily).toEqual(await checkInvariants(t.cols));
    expect(daily.problems).toEqual([
      'cookies/quiet: stored balance 43, events explain 50',
      'cookies/quiet: 1 operation marker(s) left (pendingOps present)',
      'cookies: balances total 1043, minted 1050 - burned 0 = 1050',
    ]);
    expect(checkpoint.rereads).toBe(1);
  });

  it('GIVEN an account its events leave empty THEN the checkpoint forgets it, and compares it as before once a later event fills it again', async () => {
    const { clock, ledger, checkpoint, until } = dayByDay();
    await seedBalance(ledger, 'ada', 100);
    await ledger.flush();
    expect((await checkpoint.check(until())).problems).toEqual([]);
    expect(checkpoint.accountsKept).toBe(1);
    clock.advance(3_600_000);
    await ledger.transfer({
      opId: 'all',
      currency: 'cookies',
      from: 'ada',
      to: 'bo',
      amount: 100,
      kind: 'give',
    });
    await ledger.flush();
    expect((await checkpoint.check(until())).problems).toEqual([]);
    expect(checkpoint.accountsKept).toBe(1);
    clock.advance(3_600_000);
    await ledger.transfer({
      opId: 'back',
      currency: 'cookies',
      from: 'bo',
      to: 'ada',
      amount: 30,
      kind: 'give',
    });
    await ledger.flush();
    const daily = await checkpoint.check(until());
    expect(daily.problems).toEqual([]);
    expect(daily).toEqual(await checkInvariants(t.cols));
    expect(checkpoint.accountsKept).toBe(2);
    expect(checkpoint.rereads).toBe(0);
  });

  it('GIVEN a difference a daily check found THEN the next day, after unrelated trades, reports it still: a failing read is no checkpoint', async () => {
    const { clock, ledger, checkpoint, until } = dayByDay();
    for (const who of ['ada', 'q1', 'q2']) await seedBalance(ledger, who, who === 'ada' ? 1_000 : 50);
    await ledger.flush();
    expect((await checkpoint.check(until())).problems).toEqual([]);
    // A give between q1 and q2, then the same again behind the ledger's back (no event).
    clock.advance(86_400_000);
    await ledger.transfer({ opId: 'qq', currency: 'cookies', from: 'q1', to: 'q2', amount: 1, kind: 'give' });
    await ledger.flush();
    await t.cols.cookies.updateOne({ _id: 'q1' }, { $inc: { cookies: -10 } });
    await t.cols.cookies.updateOne({ _id: 'q2' }, { $inc: { cookies: 10 } });
    const found = await checkpoint.check(until());
    expect(found.problems).toEqual([
      'cookies/q1: stored balance 39, events explain 49',
      'cookies/q2: stored balance 61, events explain 51',
    ]);
    clock.advance(86_400_000);
    await ledger.transfer({ opId: 'g', currency: 'cookies', from: 'ada', to: 'bo', amount: 5, kind: 'give' });
    await ledger.flush();
    const next = await checkpoint.check(until());
    expect(next).toEqual(await checkInvariants(t.cols));
    expect(next.problems).toEqual(found.problems);
  });

  it('GIVEN a transfer refused and compensated each day (a leg applied and undone, no event) THEN each daily check finds nothing and reads only its day', async () => {
    const refuseBad = {
      step(step: LedgerStep, spec: OperationSpec) {
        if (step === 'credit.before' && spec.opId.startsWith('bad')) throw new Error('refused');
      },
    };
    const { clock, ledger, checkpoint, until } = dayByDay(refuseBad);
    await seedBalance(ledger, 'ada', 1_000);
    await ledger.flush();
    expect((await checkpoint.check(until())).problems).toEqual([]);
    for (let day = 1; day <= 2; day++) {
      clock.advance(86_400_000);
      await expect(
        ledger.transfer({
          opId: `bad-${day}`,
          currency: 'cookies',
          from: 'ada',
          to: 'bo',
          amount: 5,
          kind: 'give',
        }),
      ).rejects.toThrow();
      await ledger.flush();
      expect((await checkpoint.check(until())).problems).toEqual([]);
    }
    expect(checkpoint.rereads).toBe(0);
    expect(await t.cols.cookies.findOne({ _id: 'ada' })).toMatchObject({ cookies: 1_000, undone: 2 });
  });

  it.each([
    ['half an hour (an operation in flight while the last check read)', 30, 0],
    ['a day (a late recovery)', 24 * 60, 1],
  ])(
    'GIVEN an operation recorded after a checkpoint dated %s before it THEN the next check finds nothing wrong, reading everything again only past the hour',
    async (_, minutesBefore, rereads) => {
      const clock = new ManualClock(new Date('2026-01-02T00:00:00Z'));
      const ledger = makeLedger(t.cols, { clock });
      const checkpoint = new InvariantCheckpoint(t.cols);
      await seedBalance(ledger, 'ada', 1_000);
      await ledger.flush();
      expect((await checkpoint.check(new Date(clock.now().getTime() + 1))).problems).toEqual([]);
      // A second process whose clock is behind: its give is recorded now, dated then.
      const behind = new ManualClock(new Date(clock.now().getTime() - minutesBefore * 60_000));
      const late = makeLedger(t.cols, { clock: behind });
      await late.transfer({
        opId: 'late-give',
        currency: 'cookies',
        from: 'ada',
        to: 'bo',
        amount: 40,
        kind: 'give',
      });
      await late.flush();
      clock.advance(3_600_000);
      const report = await checkpoint.check(new Date(clock.now().getTime() + 1));
      expect(report.problems).toEqual([]);
      expect(report).toEqual(await checkInvariants(t.cols));
      expect(checkpoint.rereads).toBe(rereads);
      // The next check reads the hour again without counting an event twice.
      clock.advance(600_000);
      expect(await checkpoint.check(new Date(clock.now().getTime() + 1))).toEqual(
        await checkInvariants(t.cols),
      );
      expect(checkpoint.rereads).toBe(rereads);
    },
  );
});
