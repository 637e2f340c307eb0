import type { Collection, Db } from 'mongodb';
import { COLLECTION_NAMES, JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/** A reward decided by a claim and not yet known to be credited (its operation id makes it credit once). */
export interface PendingCollect {
  opId: string;
  amount: number;
  base: number;
  bonus: number;
  streak: number;
  via: 'command' | 'bakery';
  at: Date;
}

/**
 * A member's collect cooldown in `cooldown_cookies` (`_id` = `cookies.collect:<userId>`, the
 * same shape `src/cooldowns` writes, plus the streak and the reward being paid). The claim,
 * the streak and the reward are one atomic write, so a crash after it loses nothing: the
 * pending reward is credited later with its own operation id.
 */
export interface CollectDoc {
  _id: string;
  userId: string;
  action: 'cookies.collect';
  until: Date;
  lastAt: Date;
  streak: number;
  bestStreak: number;
  pending?: PendingCollect;
}

const ACTION = 'cookies.collect';

/** The only code that touches collect cooldowns. */
export class CollectStore {
  readonly #docs: Collection<CollectDoc>;

  constructor(db: Db) {
    this.#docs = db.collection<CollectDoc>(COLLECTION_NAMES.cooldowns, { writeConcern: JOURNALED });
  }

  static id(userId: string): string {
    return `${ACTION}:${userId}`;
  }

  get(userId: string): Promise<CollectDoc | null> {
    return this.#docs.findOne({ _id: CollectStore.id(userId) });
  }

  /**
   * Claims the cooldown if it is still the one read (`previousUntil`; null: never collected).
   * Returns false when another claim got there first.
   */
  async claim(
    userId: string,
    previousUntil: Date | null,
    next: { until: Date; lastAt: Date; streak: number; pending: PendingCollect },
  ): Promise<boolean> {
    const fields = {
      userId,
      action: ACTION,
      until: next.until,
      lastAt: next.lastAt,
      streak: next.streak,
      pending: next.pending,
    } as const;
    try {
      if (previousUntil === null) {
        await this.#docs.insertOne({ _id: CollectStore.id(userId), ...fields, bestStreak: next.streak });
        return true;
      }
      const result = await this.#docs.updateOne(
        { _id: CollectStore.id(userId), until: previousUntil, pending: { $exists: false } },
        { $set: fields, $max: { bestStreak: next.streak } },
      );
      return result.modifiedCount === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** The reward is credited: forget it (only if it is still this one). */
  async clearPending(userId: string, opId: string): Promise<void> {
    await this.#docs.updateOne(
      { _id: CollectStore.id(userId), 'pending.opId': opId },
      { $unset: { pending: '' } },
    );
  }
}
