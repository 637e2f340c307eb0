import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/errors.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems, makeLedger, runPool, seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('ledger_concurrency');

function codeOf(result: PromiseSettledResult<unknown>): string | undefined {
  return result.status === 'rejected' ? (result.reason as AppError).code : undefined;
}

describe('ledger under concurrency', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN balance B WHEN 500 debits of a run at once THEN exactly floor(B/a) succeed and the rest are refused', async () => {
    const ledger = makeLedger(t.cols);
    const B = 10_000;
    const a = 37;
    await seedBalance(ledger, 'whale', B);
    const results = await Promise.allSettled(
      Array.from({ length: 500 }, (_, i) =>
        ledger.debit({
          opId: `burn-${i}`,
          currency: 'cookies',
          account: 'whale',
          amount: a,
          kind: 'test.burn',
        }),
      ),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled').length;
    expect(succeeded).toBe(Math.floor(B / a));
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => codeOf(r) === 'INSUFFICIENT_COOKIES'),
    ).toBe(true);
    const balances = results.flatMap((r) =>
      r.status === 'fulfilled' ? [r.value.legs[0]?.balanceAfter ?? -1] : [],
    );
    expect(Math.min(...balances)).toBeGreaterThanOrEqual(0);
    await ledger.flush();
    expect(await ledger.balanceOf('cookies', 'whale')).toBe(B % a);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN one member paying 500 times at once through two processes THEN exactly what the balance covers is paid, once each', async () => {
    const shards = [makeLedger(t.cols), makeLedger(t.cols)];
    const B = 5_000;
    const a = 13;
    await seedBalance(shards[0] as ReturnType<typeof makeLedger>, 'payer', B);
    const results = await Promise.allSettled(
      Array.from({ length: 500 }, (_, i) =>
        (shards[i % 2] as ReturnType<typeof makeLedger>).transfer({
          opId: `pay-${i}`,
          currency: 'cookies',
          from: 'payer',
          to: `payee-${i % 40}`,
          amount: a,
          kind: 'test.pay',
        }),
      ),
    );
    const paid = results.filter((r) => r.status === 'fulfilled').length;
    expect(paid).toBe(Math.min(500, Math.floor(B / a)));
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => codeOf(r) === 'INSUFFICIENT_COOKIES'),
    ).toBe(true);
    await Promise.all(shards.map((s) => s.flush()));
    expect(await (shards[0] as ReturnType<typeof makeLedger>).balanceOf('cookies', 'payer')).toBe(
      B - paid * a,
    );
    expect(await t.cols.cookies.countDocuments({ pendingOps: { $exists: true } })).toBe(0);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN 50 wallets WHEN 10,000 random transfers run 64 at a time THEN the total is conserved exactly', async () => {
    const ledger = makeLedger(t.cols);
    const wallets = Array.from({ length: 50 }, (_, i) => `w${i}`);
    await Promise.all(wallets.map((w) => seedBalance(ledger, w, 1_000)));
    const plan = fc
      .sample(
        fc.record({
          from: fc.nat(49),
          hop: fc.integer({ min: 1, max: 49 }),
          amount: fc.integer({ min: 1, max: 100 }),
        }),
        { seed: 42, numRuns: 10_000 },
      )
      .map(({ from, hop, amount }) => ({ from: `w${from}`, to: `w${(from + hop) % 50}`, amount }));
    const results = await runPool(plan.length, 64, (i) => {
      const p = plan[i] as (typeof plan)[number];
      return ledger.transfer({ opId: `tx-${i}`, currency: 'cookies', ...p, kind: 'test.give' });
    });
    const failures = results.filter((r) => r.status === 'rejected');
    expect(failures.every((r) => codeOf(r) === 'INSUFFICIENT_COOKIES')).toBe(true);
    expect(results.length - failures.length).toBeGreaterThan(5_000);
    await ledger.flush();
    const report = await checkInvariants(t.cols);
    expect(report.problems).toEqual([]);
    expect(report.totals.cookies.balances).toBe(50_000);
  });

  it('GIVEN one operation id sent 50 times at once THEN it is applied once and every caller gets the same outcome', async () => {
    const ledger = makeLedger(t.cols);
    await seedBalance(ledger, 'gia', 500);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        ledger.transfer({
          opId: 'same-give',
          currency: 'cookies',
          from: 'gia',
          to: 'hal',
          amount: 100,
          kind: 'give',
        }),
      ),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => JSON.stringify(r.legs))).size).toBe(1);
    await ledger.flush();
    expect(await ledger.balanceOf('cookies', 'gia')).toBe(400);
    expect(await ledger.balanceOf('cookies', 'hal')).toBe(100);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a credit id sent 50 times at once to a new account THEN the wallet is created once and credited once', async () => {
    const ledger = makeLedger(t.cols);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        ledger.credit({
          opId: 'grant-1',
          currency: 'place',
          account: 'ivy',
          amount: 100_000,
          kind: 'place.admin_grant',
        }),
      ),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    await ledger.flush();
    const {
      changes,
      undone = 0,
      ...wallet
    } = (await t.db
      .collection<{ _id: string; changes: number; undone?: number }>('place_wallets')
      .findOne({ _id: 'ivy' })) ?? { changes: 0 };
    expect(wallet).toEqual({ _id: 'ivy', balance: 100_000, earned: 100_000, spent: 0, placements: 0 });
    // A copy that found the id unrecorded, then applied after the first had finished, is
    // undone by the event's unique id: it counts a change and an undone one, and no event.
    expect(changes - undone).toBe(1);
    expect(await t.cols.ledgerEvents.countDocuments({ opId: 'grant-1' })).toBe(1);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN 100 different first credits to one missing account THEN all land on one document', async () => {
    const ledger = makeLedger(t.cols);
    await Promise.all(Array.from({ length: 100 }, () => seedBalance(ledger, 'newbie', 3)));
    await ledger.flush();
    expect(await t.cols.cookies.find({ _id: 'newbie' }).toArray()).toEqual([
      { _id: 'newbie', cookies: 300, changes: 100 },
    ]);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('refuses a reused operation id with a different amount, in sequence and concurrently, moving nothing', async () => {
    const ledger = makeLedger(t.cols);
    await seedBalance(ledger, 'jay', 500);
    await ledger.debit({ opId: 'buy-1', currency: 'cookies', account: 'jay', amount: 100, kind: 'shop.buy' });
    await ledger.flush();
    const sequential = await ledger
      .debit({ opId: 'buy-1', currency: 'cookies', account: 'jay', amount: 150, kind: 'shop.buy' })
      .catch((e: unknown) => e);
    expect((sequential as AppError).code).toBe('OPERATION_ID_REUSED');
    const concurrent = await Promise.allSettled([
      ledger.debit({ opId: 'buy-2', currency: 'cookies', account: 'jay', amount: 10, kind: 'shop.buy' }),
      ledger.debit({ opId: 'buy-2', currency: 'cookies', account: 'jay', amount: 20, kind: 'shop.buy' }),
    ]);
    expect(concurrent.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(concurrent.map(codeOf).filter(Boolean)).toEqual(['OPERATION_ID_REUSED']);
    await ledger.flush();
    const after = await ledger.balanceOf('cookies', 'jay');
    expect([390, 380]).toContain(after);

    await ledger.transfer({
      opId: 'tip-1',
      currency: 'cookies',
      from: 'jay',
      to: 'kai',
      amount: 10,
      kind: 'give',
    });
    await ledger.flush();
    const reusedTransfer = await ledger
      .transfer({ opId: 'tip-1', currency: 'cookies', from: 'jay', to: 'kai', amount: 99, kind: 'give' })
      .catch((e: unknown) => e);
    expect((reusedTransfer as AppError).code).toBe('OPERATION_ID_REUSED');
    await ledger.flush();
    expect(await ledger.balanceOf('cookies', 'jay')).toBe(after - 10);
    expect(await ledger.balanceOf('cookies', 'kai')).toBe(10);
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});
