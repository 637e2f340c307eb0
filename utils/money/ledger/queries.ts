import type { Filter } from 'mongodb';
import type { Collections } from '../../../src/db/collections.js';
import { type BalanceDoc, type Books, createBooks, HOLD_PREFIX, POT_PREFIX, readBalance } from './books.js';
import type { LedgerEventDoc, OperationSpec, PlaceWalletDoc } from './documents.js';

/** What one kind of change did to an account: how often, and how much came in and went out. */
export interface KindTotal {
  count: number;
  in: number;
  out: number;
}

/**
 * The ledger's read model: what screens and reports ask of balances and of the audit (tops,
 * ranks, a member's history, totals and flows by kind). It writes nothing; the money protocol
 * is `ledger.ts`. Members are every account but the house vault, table pots and holds.
 */
export class LedgerQueries {
  readonly #books: Books;

  constructor(private readonly deps: { cols: Collections; houseAccountId: string }) {
    this.#books = createBooks(deps.cols);
  }

  /** The largest positive balances of members (the vault and pots are not members), largest first. */
  async topBalances(
    currency: OperationSpec['currency'],
    limit: number,
  ): Promise<{ account: string; balance: number }[]> {
    const book = this.#books[currency];
    const field = book.balanceField;
    const docs = await book.collection
      .find({ _id: this.#memberIds(), [field]: { $gt: 0 } } as Filter<BalanceDoc>, {
        projection: { [field]: 1 },
      })
      .sort({ [field]: -1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({ account: doc._id, balance: readBalance(book, doc) }));
  }

  /** Every member's positive balance (not the vault's, a pot's or a hold's): the supply and its spread. */
  async memberBalances(currency: OperationSpec['currency']): Promise<number[]> {
    const book = this.#books[currency];
    const field = book.balanceField;
    const docs = await book.collection
      .find({ _id: this.#memberIds(), [field]: { $gt: 0 } } as Filter<BalanceDoc>, {
        projection: { [field]: 1 },
      })
      .toArray();
    return docs.map((doc) => readBalance(book, doc));
  }

  /** A Place wallet as stored: balance, lifetime earned and spent (milli-points), placements. */
  async placeWallet(
    identity: string,
  ): Promise<{ balance: number; earned: number; spent: number; placements: number }> {
    const doc = await this.deps.cols.placeWallets.findOne({ _id: identity });
    return {
      balance: doc?.balance ?? 0,
      earned: doc?.earned ?? 0,
      spent: doc?.spent ?? 0,
      placements: doc?.placements ?? 0,
    };
  }

  /** The Place wallets with the most of `field` (placements, or lifetime earned), most first. */
  async topPlaceWallets(
    field: 'placements' | 'earned',
    limit: number,
  ): Promise<{ account: string; value: number }[]> {
    const docs = await this.deps.cols.placeWallets
      .find({ _id: this.#memberIds(), [field]: { $gt: 0 } } as Filter<PlaceWalletDoc>, {
        projection: { [field]: 1 },
      })
      .sort({ [field]: -1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ account: d._id, value: d[field] }));
  }

  /** How many members hold more than `balance` (a member's rank is this plus one). */
  async countRicherThan(currency: OperationSpec['currency'], balance: number): Promise<number> {
    const book = this.#books[currency];
    return book.collection.countDocuments({
      _id: this.#memberIds(),
      [book.balanceField]: { $gt: balance },
    } as Filter<BalanceDoc>);
  }

  /**
   * The last changes of one account's balance, newest first (`/cookies history`), in the
   * account's own order of changes (`sequence`): changes that share a timestamp keep the
   * order in which they changed the balance, so each "balance after" follows from the one
   * before. The few events without a sequence (a change whose reply was lost and that
   * recovery finished, or one written before sequences existed) are placed by time.
   *
   * Each "balance after" is chained from the newest one known: every entry's is the next
   * newer one's minus that change, so the list always adds up, also across an event whose
   * balance is unknown and across a change that was applied and then reversed before it
   * finished (a refused give's debit, which leaves no event: the figures at that moment
   * were that much lower, and the chain shows them as if it had never been tried).
   */
  async history(
    currency: OperationSpec['currency'],
    account: string,
    limit: number,
  ): Promise<LedgerEventDoc[]> {
    const events = this.deps.cols.ledgerEvents;
    const [sequenced, unsequenced] = await Promise.all([
      events
        .find({ currency, account, sequence: { $ne: null } })
        .sort({ sequence: -1 })
        .limit(limit)
        .toArray(),
      events.find({ currency, account, sequence: null }).sort({ at: -1, _id: -1 }).limit(limit).toArray(),
    ]);
    return chainBalances(mergeNewestFirst(sequenced, unsequenced, limit));
  }

  /** One account's changes by kind (count, money in, money out), optionally since a time. */
  async totalsByKind(
    currency: OperationSpec['currency'],
    account: string,
    since?: Date,
  ): Promise<Map<string, KindTotal>> {
    // Summed by the server: a member with years of history sends back one row per kind.
    return this.#byKind({ currency, account, ...(since ? { at: { $gte: since } } : {}) });
  }

  /**
   * What moved between `since` and `until`, by kind, for the members together and for the
   * house (pots are passing places and left out): the faucets and sinks of a currency.
   */
  async flowsByKind(
    currency: OperationSpec['currency'],
    since: Date,
    until: Date,
  ): Promise<{ members: Map<string, KindTotal>; house: Map<string, KindTotal> }> {
    const group = (account: Filter<LedgerEventDoc>['account']) =>
      this.#byKind({ currency, account, at: { $gte: since, $lt: until } });
    const [members, house] = await Promise.all([group(this.#memberIds()), group(this.deps.houseAccountId)]);
    return { members, house };
  }

  /** The members with a change of `kind` between `since` and `until` (the day's collectors). */
  async accountsWithKind(
    currency: OperationSpec['currency'],
    kind: string,
    since: Date,
    until: Date,
  ): Promise<string[]> {
    const rows = await this.deps.cols.ledgerEvents
      .aggregate<{ _id: string }>([
        { $match: { currency, kind, account: this.#memberIds(), at: { $gte: since, $lt: until } } },
        { $group: { _id: '$account' } },
      ])
      .toArray();
    return rows.map((r) => r._id).sort();
  }

  /**
   * Several accounts' totals by kind since `since`, in one pass over the events (a report on
   * many members: one read of the history, not one per member).
   */
  async totalsByAccountAndKind(
    currency: OperationSpec['currency'],
    accounts: readonly string[],
    since: Date,
  ): Promise<Map<string, Map<string, KindTotal>>> {
    const rows = await this.deps.cols.ledgerEvents
      .aggregate<{ _id: { account: string; kind: string }; count: number; in: number; out: number }>([
        { $match: { currency, account: { $in: [...accounts] }, at: { $gte: since } } },
        { $group: { _id: { account: '$account', kind: '$kind' }, ...KIND_SUMS } },
      ])
      .toArray();
    const totals = new Map<string, Map<string, KindTotal>>(accounts.map((a) => [a, new Map()]));
    for (const r of rows)
      totals.get(r._id.account)?.set(r._id.kind, { count: r.count, in: r.in, out: r.out });
    return totals;
  }

  /** The events matching `match`, summed by kind on the server. */
  async #byKind(match: Filter<LedgerEventDoc>): Promise<Map<string, KindTotal>> {
    const rows = await this.deps.cols.ledgerEvents
      .aggregate<{ _id: string; count: number; in: number; out: number }>([
        { $match: match },
        { $group: { _id: '$kind', ...KIND_SUMS } },
      ])
      .toArray();
    return new Map(rows.map((r) => [r._id, { count: r.count, in: r.in, out: r.out }]));
  }

  #memberIds() {
    return { $nin: [this.deps.houseAccountId], $not: new RegExp(`^(${POT_PREFIX}|${HOLD_PREFIX})`) };
  }
}

/** A group's count, and what its events put in and took out. */
const KIND_SUMS = {
  count: { $sum: 1 },
  in: { $sum: { $cond: [{ $gt: ['$delta', 0] }, '$delta', 0] } },
  out: { $sum: { $cond: [{ $lt: ['$delta', 0] }, { $subtract: [0, '$delta'] }, 0] } },
};

/**
 * Merges an account's events in their sequence order with those that have none, newest
 * first: an unsequenced event goes before the first sequenced one that is not newer than it.
 */
function mergeNewestFirst(
  sequenced: LedgerEventDoc[],
  unsequenced: LedgerEventDoc[],
  limit: number,
): LedgerEventDoc[] {
  const merged: LedgerEventDoc[] = [];
  let i = 0;
  let j = 0;
  while (merged.length < limit && (i < sequenced.length || j < unsequenced.length)) {
    const next = sequenced[i];
    const other = unsequenced[j];
    if (next && (!other || next.at.getTime() >= other.at.getTime())) {
      merged.push(next);
      i++;
    } else if (other) {
      merged.push(other);
      j++;
    }
  }
  return merged;
}

/** Newest first: each balance after follows from the newest known one and the changes between. */
function chainBalances(events: LedgerEventDoc[]): LedgerEventDoc[] {
  const anchor = events.findIndex((e) => e.balanceAfter !== null);
  if (anchor < 0) return events;
  const chained = events.map((e) => ({ ...e }));
  for (let i = anchor + 1; i < chained.length; i++) {
    const newer = chained[i - 1] as LedgerEventDoc;
    (chained[i] as LedgerEventDoc).balanceAfter = (newer.balanceAfter as number) - newer.delta;
  }
  for (let i = anchor - 1; i >= 0; i--) {
    const older = chained[i + 1] as LedgerEventDoc;
    (chained[i] as LedgerEventDoc).balanceAfter =
      (older.balanceAfter as number) + (chained[i] as LedgerEventDoc).delta;
  }
  return chained;
}
