import type { Db } from 'mongodb';
import type { Collections } from '../../src/db/collections.js';
import { HOLDS, type HoldDoc } from '../../utils/money/holds/holdStore.js';
import type { LedgerEventDoc } from '../../utils/money/ledger/documents.js';

/*
 * A long history written directly, in the shapes the ledger and the holds write, much faster
 * than through them: 50 members funded once, then game rounds, each a hold whose stake went
 * from a member to the hold's own account and from there to the house (two transfers of two
 * legs each, four events a round), the hold posted and its account left empty. Nothing is
 * wrong in it. `npm run bench:full-check` measures the full check over half a million rounds;
 * test/ledger/fullCheckHistory.test.ts holds the fixture to the checks.
 */

export const MEMBERS = 50;
const FUNDS = 1_000_000_000;
const WRITE_BATCH = 5_000;
export const HOUSE = 'house';

function event(
  opId: string,
  leg: 'debit' | 'credit',
  account: string,
  counterparty: string | null,
  delta: number,
  at: Date,
  type: LedgerEventDoc['type'] = 'transfer',
): LedgerEventDoc {
  return {
    _id: `${opId}:${leg}`,
    opId,
    attempt: `${opId}:1`,
    fingerprint: opId,
    type,
    leg,
    currency: 'cookies',
    kind: 'games.stake',
    account,
    counterparty,
    delta,
    amount: Math.abs(delta),
    placements: 0,
    balanceAfter: null,
    sequence: null,
    source: 'bench',
    beneficiary: account,
    reason: 'bench',
    at,
    recovered: false,
  };
}

/** One round: its hold, and the four events of its stake's way from the member to the house. */
function round(i: number): { hold: HoldDoc; events: LedgerEventDoc[] } {
  const member = `m${i % MEMBERS}`;
  const account = `hold:h${i}`;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000);
  const stake = 1 + (i % 97);
  const hold: HoldDoc = {
    _id: `h${i}`,
    currency: 'cookies',
    account,
    from: member,
    amount: stake,
    kind: 'games.stake',
    source: member,
    reason: 'bench',
    owner: { kind: 'game', id: `r${i}` },
    state: 'posted',
    deadline: new Date(at.getTime() + 60_000),
    postings: [{ to: HOUSE, amount: stake, kind: 'games.payout' }],
    createdAt: at,
    endedAt: at,
  };
  return {
    hold,
    events: [
      event(`reserve-${i}`, 'debit', member, account, -stake, at),
      event(`reserve-${i}`, 'credit', account, member, stake, at),
      event(`post-${i}`, 'debit', account, HOUSE, -stake, at),
      event(`post-${i}`, 'credit', HOUSE, account, stake, at),
    ],
  };
}

/** Writes `rounds` rounds after the members' funding, in parts of `WRITE_BATCH`. */
export async function writeRoundHistory(db: Db, cols: Collections, rounds: number): Promise<void> {
  const opening = Array.from({ length: MEMBERS }, (_, m) =>
    event(`fund-m${m}`, 'credit', `m${m}`, null, FUNDS, new Date(Date.UTC(2025, 11, 31)), 'credit'),
  );
  await cols.ledgerEvents.insertMany(opening);
  const balances = new Map<string, number>(opening.map((e) => [e.account, FUNDS]));
  for (let from = 0; from < rounds; from += WRITE_BATCH) {
    const part = Array.from({ length: Math.min(WRITE_BATCH, rounds - from) }, (_, k) => round(from + k));
    await db.collection<HoldDoc>(HOLDS).insertMany(part.map((r) => r.hold));
    await cols.ledgerEvents.insertMany(part.flatMap((r) => r.events));
    await cols.cookies.insertMany(part.map((r) => ({ _id: r.hold.account, cookies: 0 })));
    for (const r of part) {
      const member = r.hold.from as string;
      balances.set(member, (balances.get(member) ?? 0) - r.hold.amount);
      balances.set(HOUSE, (balances.get(HOUSE) ?? 0) + r.hold.amount);
    }
  }
  await cols.cookies.insertMany([...balances].map(([_id, cookies]) => ({ _id, cookies })));
}
