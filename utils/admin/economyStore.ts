import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { KindTotal } from '../money/ledger/ledger.js';

/** One kind's movements of a day (kinds hold dots, which a stored key may not). */
export interface KindRow extends KindTotal {
  kind: string;
}

/**
 * What moved on one closed UTC day (`_id` = `2026-03-01`), summed from the ledger's events
 * once and kept: `/admin economy health` reads 30 of these by id instead of scanning the
 * history on every call. A closed day's events do not change (an operation a recovery rolls
 * forward later keeps its own time, and is within minutes of it).
 */
export interface EconomyDayDoc {
  _id: string;
  cookies: { members: KindRow[]; house: KindRow[] };
  place: { members: KindRow[] };
  computedAt: Date;
}

/** The only code that touches `economy_days`. */
export class EconomyStore {
  readonly #days: Collection<EconomyDayDoc>;

  constructor(db: Db) {
    this.#days = db.collection<EconomyDayDoc>('economy_days');
  }

  /** The stored days among `ids`, found by their ids. */
  async days(ids: string[]): Promise<Map<string, EconomyDayDoc>> {
    const docs = await this.#days.find({ _id: { $in: ids } }).toArray();
    return new Map(docs.map((d) => [d._id, d]));
  }

  /** Keeps a closed day (the same sums if two admins computed it at once). */
  async keep(day: EconomyDayDoc): Promise<void> {
    try {
      await this.#days.replaceOne({ _id: day._id }, day, { upsert: true });
    } catch (error) {
      // Two processes storing the same closed day at once: the other one's sums are the same.
      if (!isDuplicateKey(error)) throw error;
    }
  }
}
