import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../../src/db/collections.js';
import { isDuplicateKey } from '../../../src/db/duplicateKey.js';
import { inChunks } from '../../../src/db/inChunks.js';
import type { Currency } from '../ledger/documents.js';

/**
 * Where a hold is in its life (holds.ts):
 * `reserving` (the reserve's transfer may be in flight) → `held` (the value sits in the hold's
 * account) → `posting` (where it goes is fixed: `postings`) → `posted`; or `held` → `voiding`
 * → `voided` (back to where it came from); or `reserving` → `refused` (the reserve never
 * arrived and, its account closed, never can).
 */
export type HoldState = 'reserving' | 'held' | 'posting' | 'posted' | 'voiding' | 'voided' | 'refused';

export const OPEN_HOLD_STATES: readonly HoldState[] = ['reserving', 'held', 'posting', 'voiding'];

/** What the value is held for: a game round, a poker table, a heist, a placement, a claim… */
export interface HoldOwner {
  kind: string;
  id: string;
}

/** One destination of a post: an account, or `null` to burn (Place points spent on a pixel). */
export interface Posting {
  to: string | null;
  amount: number;
  /** The ledger kind the movement carries (`games.payout`, `poker.buyin`, …). */
  kind: string;
}

export interface HoldDoc {
  _id: string;
  currency: Currency;
  /** The hold's own account (`hold:<id>`): holds the value while reserved, empty after. */
  account: string;
  /** Where the value came from; null for a promise to mint (a reward owed, a refund). */
  from: string | null;
  amount: number;
  /** The ledger kind of the reserve (the stake, the buy-in, …). */
  kind: string;
  source: string;
  reason: string;
  owner: HoldOwner;
  state: HoldState;
  /** Past it, the `holds.expire` timer ends the hold (void, or post as its owner's rules say). */
  deadline: Date;
  /** The kind of a void or of a post's rest sent back (`games.refund`); else `kind`. */
  returnKind?: string;
  /** Owed already (a cash-out): a reserve whose outcome is unknown is repeated, never called off. */
  owed?: boolean;
  /** Fixed when posting starts: the resume point of a post a crash interrupted. */
  postings?: Posting[];
  createdAt: Date;
  endedAt?: Date;
}

export const HOLDS = 'holds';

/** The only code that touches `holds`. */
export class HoldStore {
  readonly #holds: Collection<HoldDoc>;

  constructor(db: Db) {
    this.#holds = db.collection<HoldDoc>(HOLDS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(HOLDS).createIndex({ 'owner.kind': 1, 'owner.id': 1 }, { name: 'by_owner' }),
      db.collection(HOLDS).createIndex({ state: 1, deadline: 1 }, { name: 'open_by_deadline' }),
      // The checker's holds that ended since a checkpoint.
      db.collection(HOLDS).createIndex({ endedAt: 1 }, { name: 'ended_by_time', sparse: true }),
    ]);
  }

  /** Stores a new hold; false when one with this id exists. */
  async insert(hold: HoldDoc): Promise<boolean> {
    try {
      await this.#holds.insertOne(hold);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  get(id: string): Promise<HoldDoc | null> {
    return this.#holds.findOne({ _id: id });
  }

  /** One guarded step: moves the hold on only from one of `from`; the hold after, or null. */
  move(id: string, from: readonly HoldState[], set: Partial<HoldDoc>): Promise<HoldDoc | null> {
    return this.#holds.findOneAndUpdate(
      { _id: id, state: { $in: [...from] } },
      { $set: set },
      { returnDocument: 'after' },
    );
  }

  ofOwner(owner: HoldOwner, states?: readonly HoldState[]): Promise<HoldDoc[]> {
    return this.#holds
      .find({
        'owner.kind': owner.kind,
        'owner.id': owner.id,
        ...(states ? { state: { $in: [...states] } } : {}),
      })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
  }

  /** Every hold of one owner kind, or of those owners of it (the checker). */
  async *ofKind(kind: string, owners?: string[]): AsyncIterable<HoldDoc> {
    if (!owners) {
      yield* this.#holds.find({ 'owner.kind': kind });
      return;
    }
    for (const part of inChunks(owners))
      yield* this.#holds.find({ 'owner.kind': kind, 'owner.id': { $in: part } });
  }

  /** The holds not yet ended that take from, pay to or were caused by `account` (a member's money in play). */
  openInvolving(account: string): Promise<HoldDoc[]> {
    return this.#holds
      .find({
        state: { $in: [...OPEN_HOLD_STATES] },
        $or: [{ from: account }, { 'postings.to': account }, { source: account }, { 'owner.id': account }],
      })
      .toArray();
  }

  /** Holds that ended before `before` (at most `limit`): what the retention removes. */
  endedBefore(before: Date, limit: number): Promise<Pick<HoldDoc, '_id' | 'currency' | 'account'>[]> {
    return this.#holds
      .find(
        { endedAt: { $lt: before }, state: { $in: ['posted', 'voided', 'refused'] } },
        { projection: { _id: 1, currency: 1, account: 1 } },
      )
      .limit(limit)
      .toArray();
  }

  async remove(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return (await this.#holds.deleteMany({ _id: { $in: [...ids] } })).deletedCount;
  }

  /** The ids of holds still open whose deadline passed before `before`, oldest first (the sweep). */
  async openPast(before: Date, limit: number): Promise<string[]> {
    const docs = await this.#holds
      .find({ state: { $in: [...OPEN_HOLD_STATES] }, deadline: { $lt: before } }, { projection: { _id: 1 } })
      .sort({ deadline: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d._id);
  }

  /** Every hold not yet ended (the checker). */
  open(): Promise<HoldDoc[]> {
    return this.#holds.find({ state: { $in: [...OPEN_HOLD_STATES] } }).toArray();
  }

  /**
   * Every hold, for the checker's comparison of hold accounts with hold states; from a
   * checkpoint `since`, the open ones and those that ended since: one `$or`, each branch served
   * by its index, each hold once.
   */
  async *all(since?: Date): AsyncIterable<HoldDoc> {
    if (!since) {
      yield* this.#holds.find({});
      return;
    }
    yield* this.#holds.find({
      $or: [{ state: { $in: [...OPEN_HOLD_STATES] } }, { endedAt: { $gte: since } }],
    });
  }
}
