import type { Collection, Db } from 'mongodb';
import { dropRetiredIndex, JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { Locale } from '../../src/i18n/i18n.js';
import { type BonusEventDoc, EarningsStore, type ProgressEventDoc } from './earningsStore.js';

export type { BonusEventDoc, ProgressEventDoc };

import type { Span } from './rewards.js';
import { TipStore } from './tipStore.js';

/** The hunt's task: its hidden target, per round (a reroll starts a new one). */
export interface TaskDoc {
  _id: 'task';
  round: number;
  target: number[];
  since: Date;
  /** Earlier rounds and their targets (a window drawn after a reroll is scored on its own). */
  past?: { round: number; target: number[]; since: Date; endedAt: Date }[];
  /** The newest round whose explanation went to the hunt channel (its first post). */
  introduced?: number;
}

/** One lottery window of a round; `drawn` is fixed once, by the guarded update that closes it. */
export interface WindowDoc {
  _id: string;
  round: number;
  index: number;
  closesAt: Date;
  bonusPath: number | null;
  status: 'open' | 'drawn';
  drawn?: string[];
  /** The server's language of the tip that opened it (its posts speak it; the next window inherits it). */
  locale?: Locale;
}

/** An identity's personal best of a round, and the progress reward being paid for it. */
export interface BestDoc {
  _id: string;
  round: number;
  identity: string;
  best: number;
  pending?: { opId: string; from: number; to: number; milli: number; sequence: number; owner: string };
}

const TASK = 'hunt_task';
const WINDOWS = 'hunt_windows';
const SEQUENCES = 'hunt_sequences';
const BESTS = 'hunt_bests';
const TIME = 'hunt_time';
const PROGRESS_EVENTS = 'place_progress_events';
const BONUS_EVENTS = 'place_bonus_events';

/** A payment of active time decided by a claim and not yet known to be made. */
export interface OwedTime {
  id: string;
  identity: string;
  milli: number;
  units: number;
  detail: string;
  at: Date;
  /**
   * How it is paid, once: `credit`, a ledger credit whose operation id is `id` (made by the
   * claim, or by the sweep a few minutes later); absent (claims written before 2026-12-02),
   * through a promised hold of that id and its timer (activeTime.ts keeps paying those).
   */
  via?: 'credit';
}

/**
 * An owner's active time (`hunt_time`, one document per owner): the stretches its identities
 * covered lately (merged), the covered time not yet paid as a whole interval, and payments
 * owed. `version` guards every write. Documents of the version before hold `paidUntil` only.
 */
export interface TimeDoc {
  _id: string;
  covered?: Span[];
  banked?: number;
  version?: number;
  owed?: OwedTime[];
  paidUntil?: number;
}

/** The only code that touches the hunt's collections (the tips through `tips`). */
export class HuntStore {
  readonly tips: TipStore;
  /** The earnings of every kind, a page at a time (the moderators' portal). */
  readonly earnings: EarningsStore;
  readonly #task: Collection<TaskDoc>;
  readonly #windows: Collection<WindowDoc>;
  readonly #sequences: Collection<{ _id: string; next: number }>;
  readonly #bests: Collection<BestDoc>;
  readonly #progress: Collection<ProgressEventDoc>;
  readonly #bonus: Collection<BonusEventDoc>;
  readonly #time: Collection<TimeDoc>;

  constructor(db: Db) {
    const j = { writeConcern: JOURNALED };
    this.tips = new TipStore(db);
    this.earnings = new EarningsStore(db, { progress: PROGRESS_EVENTS, bonus: BONUS_EVENTS });
    this.#task = db.collection<TaskDoc>(TASK, j);
    this.#windows = db.collection<WindowDoc>(WINDOWS, j);
    this.#sequences = db.collection<{ _id: string; next: number }>(SEQUENCES, j);
    this.#bests = db.collection<BestDoc>(BESTS, j);
    this.#progress = db.collection<ProgressEventDoc>(PROGRESS_EVENTS, j);
    this.#bonus = db.collection<BonusEventDoc>(BONUS_EVENTS, j);
    this.#time = db.collection<TimeDoc>(TIME, j);
  }

  /** An owner's active time: what its identities covered lately, what is banked, what is owed. */
  async timeOf(owner: string): Promise<TimeDoc | null> {
    return this.#time.findOne({ _id: owner });
  }

  /**
   * Writes an owner's time if nobody else did since `version` was read (null: never written),
   * with the payment it makes owed in the same write: two processes, or a member and its
   * workers, never count the same second twice, and a crash after this loses no payment.
   */
  async swapTime(
    owner: string,
    version: number | null,
    next: { covered: Span[]; banked: number },
    owed: OwedTime | null,
  ): Promise<boolean> {
    const set = { covered: next.covered, banked: next.banked, version: (version ?? 0) + 1 };
    try {
      if (version === null) {
        await this.#time.insertOne({ _id: owner, ...set, ...(owed ? { owed: [owed] } : {}) });
        return true;
      }
      const result = await this.#time.updateOne(
        { _id: owner, version },
        { $set: set, $unset: { paidUntil: '' }, ...(owed ? { $push: { owed } } : {}) },
      );
      return result.modifiedCount === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Owners with a payment of active time owed since `before` or earlier (the sweep's read). */
  async owedSince(before: Date): Promise<TimeDoc[]> {
    return this.#time.find({ 'owed.at': { $lte: before } }, { projection: { owed: 1 } }).toArray();
  }

  /** A payment of active time is made: it is no longer owed. */
  async paid(owner: string, id: string): Promise<void> {
    await this.#time.updateOne({ _id: owner }, { $pull: { owed: { id } } });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      TipStore.ensureIndexes(db),
      // `{ _id, status }` filters are served by the `_id` index: a second index on them only cost writes.
      dropRetiredIndex(db, 'hunt_tips', 'guard_status'),
      dropRetiredIndex(db, WINDOWS, 'guard_status'),
      db.collection(BESTS).createIndex({ round: 1, best: -1 }, { name: 'leaderboard' }),
      db.collection(WINDOWS).createIndex({ status: 1, closesAt: 1 }, { name: 'drawn_by_close' }),
      // The owed-time sweep's read; claims with nothing owed have no key in it.
      db.collection(TIME).createIndex({ 'owed.at': 1 }, { name: 'owed_at' }),
      db.collection(BONUS_EVENTS).createIndex({ at: -1 }, { name: 'newest_first' }),
      // `owner` is what the events hold and the reads ask for (the first indexes named fields
      // the documents never had, so a member's recent earnings read everything, on any server).
      db.collection(BONUS_EVENTS).createIndex({ owner: 1, at: -1 }, { name: 'by_owner_at' }),
      db.collection(PROGRESS_EVENTS).createIndex({ owner: 1, at: -1 }, { name: 'by_owner_at' }),
      db.collection(PROGRESS_EVENTS).createIndex({ at: -1 }, { name: 'newest_first' }),
      dropRetiredIndex(db, BONUS_EVENTS, 'by_owner'),
      dropRetiredIndex(db, PROGRESS_EVENTS, 'by_client'),
    ]);
  }

  async task(create: () => TaskDoc): Promise<TaskDoc> {
    const found = await this.#task.findOne({ _id: 'task' });
    if (found) return found;
    try {
      const doc = create();
      await this.#task.insertOne(doc);
      return doc;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.#task.findOne({ _id: 'task' })) as TaskDoc;
    }
  }

  /** Claims the round's explanation post, once (false: another process or an earlier run claimed it). */
  async claimIntro(round: number): Promise<boolean> {
    const result = await this.#task.updateOne(
      { _id: 'task', round, introduced: { $ne: round } },
      { $set: { introduced: round } },
    );
    return result.modifiedCount === 1;
  }

  /** A new round with a new target, if the task is still at `from` (the old one is kept in `past`). */
  async reroll(from: TaskDoc, target: number[], now: Date): Promise<boolean> {
    const result = await this.#task.updateOne(
      { _id: 'task', round: from.round },
      {
        $set: { round: from.round + 1, target, since: now },
        $push: { past: { round: from.round, target: from.target, since: from.since, endedAt: now } },
      },
    );
    return result.modifiedCount === 1;
  }

  /** The window, created on first use (its bonus path chosen by the first caller). */
  async window(w: WindowDoc): Promise<WindowDoc> {
    try {
      await this.#windows.insertOne(w);
      return w;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.#windows.findOne({ _id: w._id })) as WindowDoc;
    }
  }

  getWindow(id: string): Promise<WindowDoc | null> {
    return this.#windows.findOne({ _id: id });
  }

  /**
   * Removes windows drawn before `before`: a window's own record only carries it to its draw;
   * what it drew stays in the drawn tips and the reward events. No tip can name an old window
   * again (a tip goes to the window open now).
   */
  async pruneWindows(before: Date): Promise<number> {
    return (await this.#windows.deleteMany({ status: 'drawn', closesAt: { $lt: before } })).deletedCount;
  }

  /** Closes a window with its draw, once: null when it was closed already. */
  async closeWindow(id: string, drawn: string[]): Promise<WindowDoc | null> {
    const result = await this.#windows.updateOne(
      { _id: id, status: 'open' },
      { $set: { status: 'drawn', drawn } },
    );
    return result.modifiedCount === 1 ? this.#windows.findOne({ _id: id }) : null;
  }

  /** The next tip sequence number of an identity in a round (a reroll starts again at 1). */
  async nextSequence(round: number, identity: string): Promise<number> {
    // The pre-image + 1 names this call's own increment on any server.
    const before = await this.#sequences.findOneAndUpdate(
      { _id: `${round}:${identity}` },
      { $inc: { next: 1 } },
      { upsert: true, returnDocument: 'before' },
    );
    return (before?.next ?? 0) + 1;
  }

  best(round: number, identity: string): Promise<BestDoc | null> {
    return this.#bests.findOne({ _id: `${round}:${identity}` });
  }

  /**
   * Raises a personal best and records the reward being paid for it, in one guarded write:
   * only if the best is still `from` and no reward is pending. False when someone got there first.
   */
  async raiseBest(
    round: number,
    identity: string,
    from: number | null,
    to: number,
    pending: NonNullable<BestDoc['pending']>,
  ): Promise<boolean> {
    try {
      if (from === null) {
        await this.#bests.insertOne({
          _id: `${round}:${identity}`,
          round,
          identity,
          best: to,
          pending,
        });
        return true;
      }
      const result = await this.#bests.updateOne(
        { _id: `${round}:${identity}`, best: from, pending: { $exists: false } },
        { $set: { best: to, pending } },
      );
      return result.modifiedCount === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async clearPending(round: number, identity: string, opId: string): Promise<void> {
    await this.#bests.updateOne(
      { _id: `${round}:${identity}`, 'pending.opId': opId },
      { $unset: { pending: '' } },
    );
  }

  /** How many rewards are decided for `owner` and not paid yet: progress and active time owed. */
  async rewardsOwedTo(owner: string): Promise<number> {
    const [progress, time] = await Promise.all([
      this.#bests.countDocuments({ 'pending.owner': owner }),
      this.#time.findOne({ _id: owner }, { projection: { owed: 1 } }),
    ]);
    return progress + (time?.owed?.length ?? 0);
  }

  async withPending(): Promise<BestDoc[]> {
    return this.#bests.find({ pending: { $exists: true } }).toArray();
  }

  /** How many identities have a best in the round. */
  players(round: number): Promise<number> {
    return this.#bests.countDocuments({ round });
  }

  leaderboard(round: number, limit: number): Promise<BestDoc[]> {
    return this.#bests.find({ round }).sort({ best: -1, _id: 1 }).limit(limit).toArray();
  }

  async addProgress(event: ProgressEventDoc): Promise<void> {
    await this.#progress.insertOne(event).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
  }

  progressEvents(owner: string, limit: number): Promise<ProgressEventDoc[]> {
    return this.#progress.find({ owner }).sort({ at: -1, _id: 1 }).limit(limit).toArray();
  }

  bonusEvents(limit: number, owner?: string): Promise<BonusEventDoc[]> {
    return this.#bonus
      .find(owner ? { owner } : {})
      .sort({ at: -1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  async addBonus(event: BonusEventDoc): Promise<void> {
    await this.#bonus.insertOne(event).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
  }
}
