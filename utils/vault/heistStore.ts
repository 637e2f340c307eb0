import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';

export interface HeistResult {
  outcome: 'success' | 'failure' | 'too_small';
  crew: string[];
  chancePct: number;
  /** Each crew member's share of the loot (on top of their stake back). */
  share: number;
  loot: number;
  /** A crew called off: the smallest crew that sets off, as it was then. */
  minCrew?: number;
}

/**
 * A vault heist: `open` while members join (until `closesAt`), then `settling` once the
 * result is fixed by one guarded update, then `settled` when every payout is made.
 */
export interface HeistDoc {
  _id: string;
  leader: string;
  stake: number;
  crew: { userId: string; at: Date }[];
  status: 'open' | 'settling' | 'settled';
  /** The language of the server it was started in, for the result post. */
  locale: string;
  /** Where it was started, so its end is told there: the channel, and the crew's message once known. */
  channelId?: string | null;
  messageId?: string | null;
  /** The server it was started in: its result goes to that server's heist channel. */
  guildId?: string | null;
  createdAt: Date;
  closesAt: Date;
  result?: HeistResult;
  settledAt?: Date;
}

export const HEISTS = 'vault_heists';

/** The only code that touches `vault_heists`. */
export class HeistStore {
  readonly #heists: Collection<HeistDoc>;

  constructor(db: Db) {
    this.#heists = db.collection<HeistDoc>(HEISTS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(HEISTS).createIndex({ createdAt: -1 }, { name: 'newest_first' }),
      // The checker's heists settled since a checkpoint.
      db.collection(HEISTS).createIndex({ status: 1, settledAt: 1 }, { name: 'settled_by_time' }),
    ]);
  }

  async create(heist: HeistDoc): Promise<void> {
    await this.#heists.insertOne(heist);
  }

  get(id: string): Promise<HeistDoc | null> {
    return this.#heists.findOne({ _id: id });
  }

  /** Every settled heist, as it is read (the checker); with `since`, those settled since then. */
  settled(since?: Date): AsyncIterable<HeistDoc> {
    return this.#heists.find({ status: 'settled', ...(since ? { settledAt: { $gte: since } } : {}) });
  }

  latest(): Promise<HeistDoc | null> {
    return this.#heists.find({}).sort({ createdAt: -1 }).limit(1).next();
  }

  /** Adds a member while the heist is open, not full and they are not in it yet. */
  async join(id: string, userId: string, now: Date, maxCrew: number): Promise<HeistDoc | null> {
    return this.#heists.findOneAndUpdate(
      {
        _id: id,
        status: 'open',
        closesAt: { $gt: now },
        'crew.userId': { $ne: userId },
        [`crew.${maxCrew - 1}`]: { $exists: false },
      },
      { $push: { crew: { userId, at: now } } },
      { returnDocument: 'after' },
    );
  }

  /** The crew's message, learnt from the first press on its button (a slash command's reply has no id yet). */
  async setMessage(id: string, messageId: string): Promise<void> {
    await this.#heists.updateOne({ _id: id }, { $set: { messageId } });
  }

  /**
   * Fixes the result once: only the first caller's result is stored, and only while the crew
   * is the `crewSize` it was drawn for (a Join that landed meanwhile makes the caller draw again).
   */
  fix(id: string, result: HeistResult, crewSize: number): Promise<HeistDoc | null> {
    return this.#heists.findOneAndUpdate(
      { _id: id, status: 'open', crew: { $size: crewSize } },
      { $set: { status: 'settling', result } },
      { returnDocument: 'after' },
    );
  }

  /** The vault could not pay the loot it promised: the crew gets their stakes back only. */
  async dropLoot(id: string): Promise<void> {
    await this.#heists.updateOne(
      { _id: id, status: 'settling' },
      { $set: { 'result.loot': 0, 'result.share': 0 } },
    );
  }

  markSettled(id: string, now: Date): Promise<HeistDoc | null> {
    return this.#heists.findOneAndUpdate(
      { _id: id, status: 'settling' },
      { $set: { status: 'settled', settledAt: now } },
      { returnDocument: 'after' },
    );
  }
}
