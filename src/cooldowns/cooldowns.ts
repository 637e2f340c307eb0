import type { Collection } from 'mongodb';
import type { Clock } from '../clock.js';
import type { CooldownDoc } from '../db/collections.js';
import { isDuplicateKey } from '../db/duplicateKey.js';
import { AppError } from '../errors.js';

export interface CooldownClaim {
  until: Date;
  /** Gives the cooldown back (the action failed, so it should not count). */
  release(): Promise<void>;
}

/**
 * Per-member cooldowns in `cooldown_cookies`, one document per member and action. A claim is
 * one atomic upsert that matches only an expired document, so two shards racing for the same
 * member cannot both pass: the loser's upsert collides on `_id` (11000) and reads the time
 * the winner set, which the refusal carries as `retryAt`.
 */
export class Cooldowns {
  constructor(private readonly deps: { cooldowns: Collection<CooldownDoc>; clock: Clock }) {}

  async claim(action: string, userId: string, ms: number): Promise<CooldownClaim> {
    const id = `${action}:${userId}`;
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + ms);
    try {
      await this.deps.cooldowns.updateOne(
        { _id: id, until: { $lte: now } },
        { $set: { userId, action, until } },
        { upsert: true },
      );
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const held = await this.deps.cooldowns.findOne({ _id: id });
      const retryAt = held?.until ?? until;
      throw new AppError('COOLDOWN_ACTIVE', `${action} for ${userId} until ${retryAt.toISOString()}`, {
        action,
        retryAt: retryAt.getTime(),
      });
    }
    return {
      until,
      release: async () => {
        await this.deps.cooldowns.updateOne({ _id: id, until }, { $set: { until: now } });
      },
    };
  }
}
