import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { LedgerEventDoc } from '../../utils/money/ledger/documents.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { chainBreaks, makeLedger, seedBalance, storedBySequence } from '../support/ledgerHarness.js';

const t = useTestDatabase('ledger_history');

describe('an account history in the order its balance changed', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN many changes at one instant (a stuck clock) THEN history lists them in order, each balance after following from the last', async () => {
    // The clock never moves: every event has the same timestamp, as a burst of games does.
    const ledger = makeLedger(t.cols);
    await seedBalance(ledger, 'ann', 51);
    for (let round = 0; round < 12; round++) {
      await ledger.debit({
        opId: `stake-${round}`,
        currency: 'cookies',
        account: 'ann',
        amount: 10,
        kind: 'test.burn',
      });
      await ledger.credit({
        opId: `payout-${round}`,
        currency: 'cookies',
        account: 'ann',
        amount: 19,
        kind: 'test.mint',
      });
    }
    await ledger.flush();
    const entries = await ledger.queries.history('cookies', 'ann', 15);
    expect(entries).toHaveLength(15);
    expect(entries[0]?.opId).toBe('payout-11');
    expect(entries[1]?.opId).toBe('stake-11');
    expect(entries[0]?.balanceAfter).toBe(51 + 12 * 9);
    expect(entries.map((e) => e.opId).slice(0, 6)).toEqual([
      'payout-11',
      'stake-11',
      'payout-10',
      'stake-10',
      'payout-9',
      'stake-9',
    ]);
    expect(chainBreaks(await storedBySequence(t.cols, 'ann'))).toEqual([]);
  });

  it('GIVEN debits that land in one update (the same turn) THEN each still gets its own place in the order', async () => {
    const ledger = makeLedger(t.cols);
    await seedBalance(ledger, 'bea', 1_000);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ledger.debit({
          opId: `burst-${i}`,
          currency: 'cookies',
          account: 'bea',
          amount: 7,
          kind: 'test.burn',
        }),
      ),
    );
    await ledger.flush();
    const entries = await ledger.queries.history('cookies', 'bea', 25);
    expect(entries).toHaveLength(21);
    expect(entries[0]?.balanceAfter).toBe(1_000 - 20 * 7);
    expect(entries.at(-1)?.opId).toMatch(/^seed-/);
    expect(new Set(entries.map((e) => e.sequence)).size).toBe(21);
    // Stored balances follow the stored order: grouped debits get their own numbers and balances.
    expect(chainBreaks(await storedBySequence(t.cols, 'bea'))).toEqual([]);
  });

  it('GIVEN events without a sequence (written before sequences existed) THEN they are placed by time among the others', async () => {
    const ledger = makeLedger(t.cols, { clock: new ManualClock(new Date('2026-03-01T12:00:00Z')) });
    await seedBalance(ledger, 'cid', 100);
    await ledger.flush();
    const old = (await t.cols.ledgerEvents.findOne({ account: 'cid' })) as LedgerEventDoc;
    await t.cols.ledgerEvents.insertOne({
      ...old,
      _id: 'legacy:credit',
      opId: 'legacy',
      sequence: undefined,
      at: new Date('2026-02-01T00:00:00Z'),
    } as LedgerEventDoc);
    await t.cols.ledgerEvents.updateOne({ _id: 'legacy:credit' }, { $unset: { sequence: '' } });
    const entries = await ledger.queries.history('cookies', 'cid', 10);
    expect(entries.map((e) => e.opId)).toEqual([old.opId, 'legacy']);
  });
});
