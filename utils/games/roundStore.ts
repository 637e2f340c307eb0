import type { Collection, Db, Filter } from 'mongodb';
import { dropRetiredIndex, JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { RoundSeed } from './fairness.js';
import type { BlackjackState } from './houseGames/blackjack/rules.js';
import type { GameName } from './houseGames/index.js';

export type { GameName } from './houseGames/index.js';

/**
 * One round of a house game. `opening` (the pot is being filled) → `playing` → `settling`
 * (the result is fixed; payouts in progress) → `settled`; or `opening` → `refunded`.
 * Every step is one guarded update, so two presses, two processes or a press and the
 * round's timer cannot both take the same step.
 */
export interface RoundDoc {
  _id: string;
  game: GameName;
  userId: string;
  bet: number;
  params: Record<string, string | number>;
  seed: RoundSeed;
  /** What the house put into the pot: the largest payout minus the largest stake. */
  hold: number;
  status: 'opening' | 'playing' | 'settling' | 'settled' | 'refunded';
  /** Blackjack: the hand; `step` counts presses, `doubling` marks a double being paid. */
  hand?: BlackjackState;
  step: number;
  doubling?: boolean;
  /** The hold of a double's second stake (one per attempt: a refused double may be tried again). */
  doubleHold?: string;
  /** Fixed when the round starts settling. */
  stake?: number;
  payout?: number;
  outcome?: Record<string, unknown>;
  /** Blackjack: the timer stood the hand for a member who did not act in time. */
  timedOut?: boolean;
  /** Where it was played, so a timer that ends it tells the member there (in their language). */
  channelId?: string | null;
  messageId?: string | null;
  locale?: string;
  createdAt: Date;
  settledAt?: Date;
}

export const ROUNDS = 'games_rounds';

/** The only code that touches `games_rounds`. */
export class RoundStore {
  readonly #rounds: Collection<RoundDoc>;

  constructor(db: Db) {
    this.#rounds = db.collection<RoundDoc>(ROUNDS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(ROUNDS).createIndex({ userId: 1, createdAt: -1 }, { name: 'by_user' }),
      // The checker's rounds that ended since a checkpoint.
      db.collection(ROUNDS).createIndex({ status: 1, settledAt: 1 }, { name: 'ended_by_time' }),
      // `{ _id, status }` filters are served by the `_id` index: a second index on them only cost writes.
      dropRetiredIndex(db, ROUNDS, 'guard_status'),
    ]);
  }

  /** Stores a new round; false when a round with this id exists (a retried interaction). */
  async create(round: RoundDoc): Promise<boolean> {
    try {
      await this.#rounds.insertOne(round);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  get(id: string): Promise<RoundDoc | null> {
    return this.#rounds.findOne({ _id: id });
  }

  /** Every round that ended (the checker). */
  /** Every ended round; with `since`, those that ended since then. */
  ended(since?: Date): AsyncIterable<RoundDoc> {
    return this.#rounds.find({
      status: { $in: ['settled', 'refunded'] },
      ...(since ? { settledAt: { $gte: since } } : {}),
    });
  }

  /** The member's most recent round. */
  latestOf(userId: string): Promise<RoundDoc | null> {
    return this.#rounds.find({ userId }).sort({ createdAt: -1, _id: -1 }).limit(1).next();
  }

  /** The round's message, learnt from the first press on one of its buttons. */
  async setMessage(id: string, messageId: string): Promise<void> {
    await this.#rounds.updateOne({ _id: id }, { $set: { messageId } });
  }

  /** Moves the round on if it is still as `expected` says; returns the new document or null. */
  advance(
    id: string,
    expected: Filter<RoundDoc>,
    set: Partial<RoundDoc>,
    unset: (keyof RoundDoc)[] = [],
  ): Promise<RoundDoc | null> {
    return this.#rounds.findOneAndUpdate(
      { ...expected, _id: id },
      {
        $set: set,
        ...(unset.length > 0 ? { $unset: Object.fromEntries(unset.map((k) => [k, ''])) } : {}),
      },
      { returnDocument: 'after' },
    );
  }

  /** A member's settled rounds: how many, how many paid more than their stake, and the net. */
  async stats(userId: string): Promise<{ played: number; won: number; net: number }> {
    const [row] = await this.#rounds
      .aggregate<{ played: number; won: number; net: number }>([
        { $match: { userId, status: 'settled' } },
        {
          $group: {
            _id: null,
            played: { $sum: 1 },
            won: { $sum: { $cond: [{ $gt: ['$payout', '$stake'] }, 1, 0] } },
            net: { $sum: { $subtract: ['$payout', '$stake'] } },
          },
        },
      ])
      .toArray();
    return { played: row?.played ?? 0, won: row?.won ?? 0, net: row?.net ?? 0 };
  }
}
