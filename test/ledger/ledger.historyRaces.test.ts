import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCollections } from '../../app/openApp.js';
import { ManualClock } from '../../src/clock.js';
import type { Collections } from '../../src/db/collections.js';
import { MONEY_PATH_CLIENT_OPTIONS } from '../../src/db/connect.js';
import { MAX_BALANCE } from '../../utils/money/ledger/books.js';
import type { LedgerEventDoc } from '../../utils/money/ledger/documents.js';
import type { Ledger } from '../../utils/money/ledger/ledger.js';
import { useTestDatabase } from '../support/database.js';
import type { WireRequest } from '../support/faultProxy.js';
import { useFaultyConnection } from '../support/faultyConnection.js';
import {
  booksProblems,
  chainBreaks,
  makeLedger,
  seedBalance,
  storedBySequence,
} from '../support/ledgerHarness.js';
import { pauseAt } from '../support/pause.js';

/*
 * `/cookies history` under races: two processes (each its own connection and ledger) debiting
 * and crediting one account at once, every event at the same instant (a stuck clock), then a
 * reply lost on the way back. History follows the account's own order of changes.
 */

const t = useTestDatabase('ledger_history_races');
let second: MongoClient;
let other: Collections;
const net = useFaultyConnection(t);

beforeAll(async () => {
  second = new MongoClient(t.uri, MONEY_PATH_CLIENT_OPTIONS);
  await second.connect();
  other = appCollections(second.db(t.name));
});
afterAll(async () => {
  await second?.close();
});

/** Every ledger here reads the same stuck clock: all events share one timestamp. */
const STUCK = new Date('2026-03-01T12:00:00Z');
const ledgerOver = (cols: Collections) => makeLedger(cols, { clock: new ManualClock(STUCK) });

/** One process's share of the work on `account`: debits, credits and transfers in and out, all at once. */
function workload(ledger: Ledger, name: string, account: string, count: number): Promise<unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const opId = `${name}-${i}`;
    const amount = 1 + (i % 7);
    const settle = (p: Promise<unknown>) => p.catch((error: unknown) => error);
    switch (i % 4) {
      case 0:
        return settle(ledger.debit({ opId, currency: 'cookies', account, amount, kind: 'test.burn' }));
      case 1:
        return settle(
          ledger.credit({ opId, currency: 'cookies', account, amount: amount + 1, kind: 'test.mint' }),
        );
      case 2:
        return settle(
          ledger.transfer({
            opId,
            currency: 'cookies',
            from: account,
            to: `${name}-sink`,
            amount,
            kind: 'give',
          }),
        );
      default:
        return settle(
          ledger.transfer({
            opId,
            currency: 'cookies',
            from: `${name}-source`,
            to: account,
            amount,
            kind: 'give',
          }),
        );
    }
  });
}

async function eventsOf(account: string): Promise<LedgerEventDoc[]> {
  return t.cols.ledgerEvents.find({ currency: 'cookies', account }).toArray();
}

describe('an account history when two processes change the balance at once', () => {
  it('GIVEN debits, credits and transfers on one account from two processes at the same instant THEN every change has its own number and history adds up from the first to the last', async () => {
    const one = ledgerOver(t.cols);
    const two = ledgerOver(other);
    await seedBalance(one, 'ann', 150);
    for (const name of ['one', 'two']) await seedBalance(one, `${name}-source`, 10_000);
    await one.flush();
    for (let burst = 0; burst < 3; burst++) {
      await Promise.all([
        ...workload(one, `one${burst}`, 'ann', 60),
        ...workload(two, `two${burst}`, 'ann', 60),
      ]);
    }
    await Promise.all([one.flush(), two.flush()]);
    const events = await eventsOf('ann');
    const sequences = events.map((e) => e.sequence);
    expect(sequences.every((s) => typeof s === 'number')).toBe(true);
    expect(new Set(sequences).size).toBe(events.length);
    const entries = await one.queries.history('cookies', 'ann', events.length + 5);
    expect(entries).toHaveLength(events.length);
    expect(entries.map((e) => e.sequence)).toEqual(
      [...sequences].sort((a, b) => (b as number) - (a as number)),
    );
    expect(chainBreaks(entries)).toEqual([]);
    // Stored as they happened: in the account's order of changes, each stored balance follows.
    expect(chainBreaks(await storedBySequence(t.cols, 'ann'))).toEqual([]);
    expect(entries[0]?.balanceAfter).toBe(await one.balanceOf('cookies', 'ann'));
    expect(entries.at(-1)?.balanceAfter).toBe(150);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a balance drained by both processes at once THEN refused debits take no number, and the history of what did land still adds up', async () => {
    const one = ledgerOver(t.cols);
    const two = ledgerOver(other);
    await seedBalance(one, 'bea', 100);
    await one.flush();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? one : two)
          .debit({ opId: `drain-${i}`, currency: 'cookies', account: 'bea', amount: 7, kind: 'test.burn' })
          .then(
            () => 'ok',
            () => 'refused',
          ),
      ),
    );
    await Promise.all([one.flush(), two.flush()]);
    const landed = results.filter((r) => r === 'ok').length;
    expect(landed).toBe(14);
    const entries = await one.queries.history('cookies', 'bea', 50);
    expect(entries).toHaveLength(landed + 1);
    expect(entries.map((e) => e.sequence)).toEqual(
      Array.from({ length: landed + 1 }, (_, i) => landed + 1 - i),
    );
    expect(chainBreaks(await storedBySequence(t.cols, 'bea'))).toEqual([]);
    expect(entries[0]?.balanceAfter).toBe(100 - 14 * 7);
  });
});

describe('an account history around a give that was called back', () => {
  // A called-back debit is applied, then reversed without an event, so the changes that landed
  // in between stored a "balance after" 30 lower (100, +3 → 73 … 79, +1 → 110). History chains
  // its figures from the newest balance, so the list adds up (utils/money/ledger/queries.ts).
  it('GIVEN a give whose debit is returned (the recipient is full) while another process credits the giver THEN history still adds up', async () => {
    const one = ledgerOver(t.cols);
    await seedBalance(one, 'dan', 100);
    await seedBalance(one, 'full', MAX_BALANCE);
    await one.flush();
    const paused = pauseAt('compensation.started', 'give');
    const slow = makeLedger(other, { clock: new ManualClock(STUCK), hooks: paused.hooks });
    const giving = slow
      .transfer({ opId: 'to-full', currency: 'cookies', from: 'dan', to: 'full', amount: 30, kind: 'give' })
      .catch((error: unknown) => error);
    await paused.reached;
    for (let i = 0; i < 3; i++)
      await one.credit({
        opId: `meanwhile-${i}`,
        currency: 'cookies',
        account: 'dan',
        amount: 3,
        kind: 'test.mint',
      });
    paused.release();
    await giving;
    await one.credit({ opId: 'after', currency: 'cookies', account: 'dan', amount: 1, kind: 'test.mint' });
    await Promise.all([one.flush(), slow.flush()]);
    expect(await one.balanceOf('cookies', 'dan')).toBe(110);
    const entries = await one.queries.history('cookies', 'dan', 20);
    expect(entries[0]?.balanceAfter).toBe(110);
    expect(chainBreaks(entries)).toEqual([]);
  });
});

describe('an account history after a lost reply', () => {
  /** The first balance update on `account` loses its reply (it applied; the connection closes). */
  function loseFirstReplyOn(account: string) {
    let done = false;
    return (request: WireRequest) => {
      const query = (request.body.query ?? {}) as { _id?: unknown };
      if (done || request.command !== 'findAndModify' || request.collection !== 'items_cookies')
        return 'pass';
      if (query._id !== account) return 'pass';
      done = true;
      return 'cut-reply' as const;
    };
  }

  it('GIVEN a change whose reply was lost among changes of another process THEN its event has no number, history still lists it, and the numbered ones keep their order', async () => {
    const clean = ledgerOver(t.cols);
    await seedBalance(clean, 'cid', 500);
    await clean.flush();
    net.proxy.setRule(loseFirstReplyOn('cid'));
    const lossy = ledgerOver(net.faulty);
    const two = ledgerOver(other);
    await Promise.all([
      lossy.debit({ opId: 'lost-reply', currency: 'cookies', account: 'cid', amount: 40, kind: 'test.burn' }),
      ...Array.from({ length: 10 }, (_, i) =>
        two.credit({
          opId: `beside-${i}`,
          currency: 'cookies',
          account: 'cid',
          amount: 3,
          kind: 'test.mint',
        }),
      ),
    ]);
    await Promise.all([lossy.flush(), two.flush()]);
    expect(net.proxy.stats.cutReplies).toBe(1);
    const lost = (await eventsOf('cid')).find((e) => e.opId === 'lost-reply') as LedgerEventDoc;
    expect(lost.sequence ?? null).toBeNull();
    const entries = await clean.queries.history('cookies', 'cid', 20);
    expect(entries.map((e) => e.opId)).toContain('lost-reply');
    expect(entries).toHaveLength(12);
    const numbered = entries.filter((e) => typeof e.sequence === 'number');
    expect(numbered.map((e) => e.sequence)).toEqual(
      [...numbered.map((e) => e.sequence)].sort((a, b) => (b as number) - (a as number)),
    );
    expect(new Set(numbered.map((e) => e.sequence)).size).toBe(11);
    // The numbered entries add up among themselves except across the lost one, by exactly its change.
    const breaks = [];
    for (let i = 0; i + 1 < numbered.length; i++) {
      const [newer, older] = [numbered[i] as LedgerEventDoc, numbered[i + 1] as LedgerEventDoc];
      const gap = (newer.balanceAfter as number) - newer.delta - (older.balanceAfter as number);
      if (gap !== 0) breaks.push(gap);
    }
    expect(breaks.length).toBeLessThanOrEqual(1);
    if (breaks.length === 1) expect(breaks[0]).toBe(-40);
    expect(await clean.balanceOf('cookies', 'cid')).toBe(500 - 40 + 30);
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});
