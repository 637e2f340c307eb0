import { beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems, HOUSE, makeLedger, seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('ledger_basics');

describe('ledger basics', () => {
  beforeEach(() => clearDatabase(t.db));

  it('credits a new account, debits it and explains both with events', async () => {
    const ledger = makeLedger(t.cols);
    const credit = await seedBalance(ledger, 'alice', 50);
    expect(credit.legs).toEqual([{ account: 'alice', side: 'credit', delta: 50, balanceAfter: 50 }]);
    const debit = await ledger.debit({
      opId: 'd1',
      currency: 'cookies',
      account: 'alice',
      amount: 20,
      kind: 'test.burn',
    });
    expect(debit.legs[0]?.balanceAfter).toBe(30);
    await ledger.flush();
    expect(await t.cols.cookies.findOne({ _id: 'alice' })).toEqual({ _id: 'alice', cookies: 30, changes: 2 });
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN more accounts than one $in names THEN balancesOf reads every one of them, a repeat once and an unknown one as 0', async () => {
    const ledger = makeLedger(t.cols);
    const ids = Array.from({ length: 700 }, (_, i) => `member-${i}`);
    await t.cols.cookies.insertMany(ids.map((_id, i) => ({ _id, cookies: i + 1, changes: 1 })));
    const asked = [...ids, 'member-3', 'nobody'];
    const balances = await ledger.balancesOf('cookies', asked);
    expect(balances.size).toBe(701);
    expect(balances.get('member-0')).toBe(1);
    expect(balances.get('member-300')).toBe(301);
    expect(balances.get('member-699')).toBe(700);
    expect(balances.get('nobody')).toBe(0);
    expect([...balances.values()].reduce((sum, b) => sum + b, 0)).toBe((700 * 701) / 2);
  });

  it('refuses a debit above the balance with INSUFFICIENT_COOKIES and moves nothing', async () => {
    const ledger = makeLedger(t.cols);
    await seedBalance(ledger, 'bob', 10);
    const error = await ledger
      .debit({ opId: 'd1', currency: 'cookies', account: 'bob', amount: 11, kind: 'test.burn' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('INSUFFICIENT_COOKIES');
    expect((error as AppError).message).toContain('INSUFFICIENT_COOKIES');
    expect((error as AppError).context).toMatchObject({ balance: 10, needed: 11 });
    await ledger.flush();
    expect(await ledger.balanceOf('cookies', 'bob')).toBe(10);
    expect(await t.cols.ledgerEvents.countDocuments({ opId: 'd1' })).toBe(0);
  });

  it('keeps place wallets in milli-points with earned, spent and placements', async () => {
    const ledger = makeLedger(t.cols);
    await ledger.credit({
      opId: 'p1',
      currency: 'place',
      account: 'carol',
      amount: 100_500,
      kind: 'place.score',
    });
    const error = await ledger
      .debit({
        opId: 'p2',
        currency: 'place',
        account: 'carol',
        amount: 200_000,
        kind: 'place.pixel',
        placements: 2,
      })
      .catch((e: unknown) => e);
    expect((error as AppError).code).toBe('INSUFFICIENT_PLACE_POINTS');
    await ledger.debit({
      opId: 'p3',
      currency: 'place',
      account: 'carol',
      amount: 100_000,
      kind: 'place.pixel',
      placements: 1,
    });
    await ledger.flush();
    expect(await t.cols.placeWallets.findOne({ _id: 'carol' })).toEqual({
      _id: 'carol',
      balance: 500,
      earned: 100_500,
      spent: 100_000,
      placements: 1,
      changes: 2,
    });
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('pays from the house only above its minimum reserve', async () => {
    const ledger = makeLedger(t.cols, { houseMinReserve: 100 });
    await seedBalance(ledger, HOUSE, 150);
    const refused = await ledger
      .payFromHouse({ opId: 'win1', to: 'dave', amount: 60, kind: 'game.win' })
      .catch((e: unknown) => e);
    expect((refused as AppError).code).toBe('HOUSE_VAULT_INSUFFICIENT');
    expect((refused as AppError).context).toMatchObject({ balance: 150, reserve: 100, available: 50 });
    await ledger.payFromHouse({ opId: 'win2', to: 'dave', amount: 50, kind: 'game.win' });
    await ledger.flush();
    expect(await ledger.balanceOf('cookies', HOUSE)).toBe(100);
    expect(await ledger.balanceOf('cookies', 'dave')).toBe(50);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('replays a finished operation id without moving value again', async () => {
    const ledger = makeLedger(t.cols);
    await seedBalance(ledger, 'erin', 40);
    const give = {
      opId: 'give1',
      currency: 'cookies',
      from: 'erin',
      to: 'fay',
      amount: 15,
      kind: 'give',
    } as const;
    const first = await ledger.transfer(give);
    await ledger.flush();
    const again = await ledger.transfer(give);
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.legs).toEqual(first.legs);
    await ledger.flush();
    expect(await ledger.balanceOf('cookies', 'erin')).toBe(25);
    expect(await ledger.balanceOf('cookies', 'fay')).toBe(15);
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});
