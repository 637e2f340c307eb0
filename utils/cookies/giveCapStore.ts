import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/** What one member received through gives on one UTC day, and which gives counted. */
export interface GiveReceivedDoc {
  _id: string;
  member: string;
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  received: number;
  /** The gives counted (their prompt ids): a retried press is not counted twice. */
  gives: string[];
}

export const GIVE_RECEIVED = 'cookies_give_received';

/**
 * The only code that touches `cookies_give_received`. A give is counted by one guarded update
 * on the receiver's day document: the amount is added only while the total stays within the
 * cap, in the same write that checks it, so two gives at once can never both pass.
 */
export class GiveCapStore {
  readonly #docs: Collection<GiveReceivedDoc>;

  constructor(db: Db) {
    this.#docs = db.collection<GiveReceivedDoc>(GIVE_RECEIVED, { writeConcern: JOURNALED });
  }

  async received(member: string, day: string): Promise<number> {
    return (await this.#docs.findOne({ _id: `${member}:${day}` }))?.received ?? 0;
  }

  /** Counts the give if the day's total stays within `cap`; returns the total before it, and whether it was counted. */
  async add(
    member: string,
    day: string,
    give: { id: string; amount: number },
    cap: number,
  ): Promise<{ counted: boolean; before: number }> {
    const _id = `${member}:${day}`;
    try {
      await this.#docs.updateOne(
        { _id },
        { $setOnInsert: { member, day, received: 0, gives: [] } },
        { upsert: true },
      );
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const before = await this.#docs.findOneAndUpdate(
      { _id, received: { $lte: cap - give.amount }, gives: { $ne: give.id } },
      { $inc: { received: give.amount }, $push: { gives: give.id } },
      { returnDocument: 'before' },
    );
    if (before) return { counted: true, before: before.received };
    const now = await this.#docs.findOne({ _id });
    // Counted already by an earlier press of the same give.
    if (now?.gives.includes(give.id)) return { counted: true, before: now.received - give.amount };
    return { counted: false, before: now?.received ?? 0 };
  }

  /** Takes a counted give back (its Cookies did not move). */
  async remove(member: string, day: string, give: { id: string; amount: number }): Promise<void> {
    await this.#docs.updateOne(
      { _id: `${member}:${day}`, gives: give.id },
      { $inc: { received: -give.amount }, $pull: { gives: give.id } },
    );
  }
}
