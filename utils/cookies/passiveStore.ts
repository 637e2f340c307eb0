import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/** A member in passive mode: neither steals nor is robbed, anywhere, since `since`. */
export interface PassiveDoc {
  _id: string;
  since: Date;
}

export const COOKIES_PASSIVE = 'cookies_passive';

/**
 * The only code that touches `cookies_passive`: one document per member in passive mode, none
 * for the others. Switching on is one upsert that keeps the first `since`; switching off is one
 * delete guarded by that time, so two presses never both pass the cooldown check.
 */
export class PassiveStore {
  readonly #docs: Collection<PassiveDoc>;

  constructor(db: Db) {
    this.#docs = db.collection<PassiveDoc>(COOKIES_PASSIVE, { writeConcern: JOURNALED });
  }

  /** Since when the member is passive, or null. */
  async since(member: string): Promise<Date | null> {
    return (await this.#docs.findOne({ _id: member }))?.since ?? null;
  }

  /** Of `members`, those in passive mode. */
  async among(members: readonly string[]): Promise<Set<string>> {
    const docs = await this.#docs
      .find({ _id: { $in: [...new Set(members)] } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(docs.map((d) => d._id));
  }

  /** Switches passive mode on at `now`; returns since when it is on (an earlier switch keeps its time). */
  async switchOn(member: string, now: Date): Promise<Date> {
    try {
      const doc = await this.#docs.findOneAndUpdate(
        { _id: member },
        { $setOnInsert: { since: now } },
        { upsert: true, returnDocument: 'after' },
      );
      return doc?.since ?? now;
    } catch (error) {
      // Two presses at once: the other inserted first, and its time stands.
      if (!isDuplicateKey(error)) throw error;
      return (await this.since(member)) ?? now;
    }
  }

  /** Switches it off if it was switched on at or before `onBy`; false when it is off or was switched on later. */
  async switchOff(member: string, onBy: Date): Promise<boolean> {
    return (await this.#docs.deleteOne({ _id: member, since: { $lte: onBy } })).deletedCount === 1;
  }
}
