import type { Collection, Db, Filter } from 'mongodb';
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
  /**
   * The member's loot bag: the most they may still steal. Each claim adds its share of the
   * reward (`cookies.steal_allowance_pct`, up to `cookies.steal_allowance_max`) in the same
   * write; a robbery takes from it (COOKIE_LOGIC.md, "Stealing").
   */
  stealAllowance?: number;
}

/** What a claim adds to the loot bag: a share of the reward, the bag never above its size. */
export interface AllowanceRule {
  pct: number;
  max: number;
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
   * Claims the cooldown if it is still the one read (`previous`; null: never collected) and
   * fills the loot bag from the reward. Returns false when another claim got there first.
   */
  async claim(
    userId: string,
    previous: CollectDoc | null,
    next: { until: Date; lastAt: Date; streak: number; pending: PendingCollect },
    allowance: AllowanceRule,
  ): Promise<boolean> {
    const bag = Math.min(
      allowance.max,
      (previous?.stealAllowance ?? 0) + Math.floor((next.pending.amount * allowance.pct) / 100),
    );
    const fields = {
      userId,
      action: ACTION,
      until: next.until,
      lastAt: next.lastAt,
      streak: next.streak,
      pending: next.pending,
      stealAllowance: bag,
    } as const;
    try {
      if (previous === null) {
        await this.#docs.insertOne({ _id: CollectStore.id(userId), ...fields, bestStreak: next.streak });
        return true;
      }
      // The bag as read: a robbery that took from it meanwhile makes this claim try again.
      const result = await this.#docs.updateOne(
        {
          _id: CollectStore.id(userId),
          until: previous.until,
          pending: { $exists: false },
          stealAllowance: previous.stealAllowance ?? null,
        } as Filter<CollectDoc>,
        { $set: fields, $max: { bestStreak: next.streak } },
      );
      return result.modifiedCount === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /**
   * Takes up to `want` from the member's loot bag (one guarded decrement, tried again when a
   * collect or another robbery changed it first). Returns what was taken: 0 for an empty bag.
   */
  async takeAllowance(userId: string, want: number): Promise<number> {
    let take = want;
    for (let tries = 0; tries < 20 && take > 0; tries++) {
      // Guarded by "at least this much", not by the value read: racing robberies of one thief
      // all succeed while the bag holds enough for each.
      const result = await this.#docs.updateOne(
        { _id: CollectStore.id(userId), stealAllowance: { $gte: take } },
        { $inc: { stealAllowance: -take } },
      );
      if (result.modifiedCount === 1) return take;
      take = Math.min(want, (await this.get(userId))?.stealAllowance ?? 0);
    }
    return 0;
  }

  /** Puts back what a robbery took from the bag and did not carry off. */
  async returnAllowance(userId: string, amount: number): Promise<void> {
    if (amount <= 0) return;
    await this.#docs.updateOne({ _id: CollectStore.id(userId) }, { $inc: { stealAllowance: amount } });
  }

  /** The reward is credited: forget it (only if it is still this one). */
  async clearPending(userId: string, opId: string): Promise<void> {
    await this.#docs.updateOne(
      { _id: CollectStore.id(userId), 'pending.opId': opId },
      { $unset: { pending: '' } },
    );
  }
}
