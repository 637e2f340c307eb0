import type { Collection, Db } from 'mongodb';
import { HOUR_MS } from '../../src/clock.js';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/** One successful robbery of a victim, as the budget and the heat count it. */
export interface StealHit {
  id: string;
  thief: string;
  amount: number;
  at: Date;
}

/** A victim's recent losses: the hits of the last hour (and of the heat window), and a version for compare-and-set. */
export interface ExposureDoc {
  _id: string;
  hits: StealHit[];
  version: number;
}

export interface BudgetClaim {
  /** Cookies this hit may take (0: the victim's hourly budget is spent). */
  granted: number;
  /** Cookies lost in the rolling hour before this hit. */
  lostThisHour: number;
  /** When the oldest hit of the hour leaves the window (the budget grows again). */
  freesAt: Date | null;
}

export const STEAL_EXPOSURE = 'cookies_steal_exposure';
const MAX_TRIES = 50;

/**
 * The only code that touches `cookies_steal_exposure`. The hourly budget holds under any
 * number of thieves because a hit is reserved by compare-and-set on the victim's document:
 * the new list of hits is written only if nobody changed the document since it was read,
 * else the claim is recomputed from the fresh document.
 */
export class ExposureStore {
  readonly #docs: Collection<ExposureDoc>;

  constructor(db: Db) {
    this.#docs = db.collection<ExposureDoc>(STEAL_EXPOSURE, { writeConcern: JOURNALED });
  }

  /** Successful robberies of the victim since `since`. */
  async hitsSince(victim: string, since: Date): Promise<StealHit[]> {
    const doc = await this.#docs.findOne({ _id: victim });
    return (doc?.hits ?? []).filter((hit) => hit.at > since);
  }

  /** Reserves up to `want` of the victim's budget for the rolling hour ending `now`. */
  async reserve(
    victim: string,
    hit: Omit<StealHit, 'amount' | 'at'>,
    want: number,
    budget: number,
    now: Date,
    keepMs: number,
  ): Promise<BudgetClaim> {
    const hourAgo = now.getTime() - HOUR_MS;
    const keepSince = now.getTime() - Math.max(keepMs, HOUR_MS);
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const doc = await this.#docs.findOne({ _id: victim });
      const kept = (doc?.hits ?? []).filter((h) => h.at.getTime() > keepSince);
      const hour = kept.filter((h) => h.at.getTime() > hourAgo);
      const lostThisHour = hour.reduce((sum, h) => sum + h.amount, 0);
      const granted = Math.max(0, Math.min(want, budget - lostThisHour));
      const oldest = hour.reduce<number | null>(
        (min, h) => Math.min(min ?? h.at.getTime(), h.at.getTime()),
        null,
      );
      const freesAt = oldest === null ? null : new Date(oldest + HOUR_MS);
      if (granted === 0) return { granted, lostThisHour, freesAt };
      const hits = [...kept, { ...hit, amount: granted, at: now }];
      if (await this.#swap(victim, doc?.version ?? null, hits)) return { granted, lostThisHour, freesAt };
    }
    throw new Error(`steal budget of ${victim}: ${MAX_TRIES} conflicting claims in a row`);
  }

  /** Gives a reserved hit back (the transfer did not happen). */
  async release(victim: string, hitId: string): Promise<void> {
    await this.#docs.updateOne({ _id: victim }, { $pull: { hits: { id: hitId } }, $inc: { version: 1 } });
  }

  async #swap(victim: string, version: number | null, hits: StealHit[]): Promise<boolean> {
    try {
      if (version === null) {
        await this.#docs.insertOne({ _id: victim, hits, version: 1 });
        return true;
      }
      const result = await this.#docs.updateOne(
        { _id: victim, version },
        { $set: { hits, version: version + 1 } },
      );
      return result.modifiedCount === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }
}
