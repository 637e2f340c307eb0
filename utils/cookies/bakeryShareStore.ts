import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/**
 * What the bakery decided to share out of one UTC day (`_id` = the day, `2026-03-01`): written
 * once, before the first Cookie moves, so a run that dies halfway and runs again pays the same
 * share to the same members (each payment has its own operation id).
 */
export interface BakeryShareDoc {
  _id: string;
  /** What the vault took from the members that day, net (games, heists, fines, rake). */
  houseTake: number;
  /** The vault's balance and the target above which its surplus is shared, when decided. */
  vault: number;
  target: number;
  /** What is shared in all (`share` × recipients), and each recipient's part. */
  pool: number;
  share: number;
  /** The members who collected that day. */
  recipients: string[];
  decidedAt: Date;
  /**
   * The members' Cookies when decided, their growth a day over the week before (% a day, null
   * without a week of decisions behind it), and what a collect pays from this decision on (%
   * of its figure): the supply rule (COOKIE_LOGIC.md, "Following the supply"). Absent on
   * decisions recorded before the rule: they count as no measure and 100 %.
   */
  supply?: number;
  growthPct?: number | null;
  collectRatePct?: number;
  /** Set once every recipient was paid (or the vault reached its reserve). */
  paidAt: Date | null;
  paid: number;
}

/** The only code that touches the bakery's shares (`bakery_shares`). */
export class BakeryShareStore {
  readonly #docs: Collection<BakeryShareDoc>;

  constructor(db: Db) {
    this.#docs = db.collection<BakeryShareDoc>('bakery_shares', { writeConcern: JOURNALED });
  }

  get(day: string): Promise<BakeryShareDoc | null> {
    return this.#docs.findOne({ _id: day });
  }

  /** The newest decision of `day` or before it (the newest of all without `day`). */
  newest(day?: string): Promise<BakeryShareDoc | null> {
    return this.#docs.findOne(day === undefined ? {} : { _id: { $lte: day } }, { sort: { _id: -1 } });
  }

  /** Records a decision unless one is recorded already; returns the one that holds. */
  async decide(decision: BakeryShareDoc): Promise<BakeryShareDoc> {
    try {
      await this.#docs.updateOne({ _id: decision._id }, { $setOnInsert: decision }, { upsert: true });
    } catch (error) {
      // Two processes deciding the same day at once: the other's decision holds.
      if (!isDuplicateKey(error)) throw error;
    }
    return (await this.get(decision._id)) ?? decision;
  }

  async markPaid(day: string, paid: number, at: Date): Promise<void> {
    await this.#docs.updateOne({ _id: day, paidAt: null }, { $set: { paidAt: at, paid } });
  }
}
