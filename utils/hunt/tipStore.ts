import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { Locale } from '../../src/i18n/i18n.js';

/** A member's (or worker's) tip of one window: a new tip in the same window replaces it. */
export interface TipDoc {
  _id: string;
  round: number;
  window: number;
  identity: string;
  sequence: number;
  guess: number[];
  path: number | null;
  at: Date;
  status: 'pending' | 'drawn' | 'missed';
  score?: number;
  /** Where a member made it (a worker's tip: nowhere): its draw is told there when no hunt channel takes it. */
  channelId?: string | null;
  /** The server's language where it was made. */
  locale?: Locale;
}

const TIPS = 'hunt_tips';
/** Drawn tips once their window is a day old: the members' draw history. */
const DRAWN_TIPS = 'hunt_drawn_tips';
/** Tips stay in `hunt_tips` this long after they were made (their window is long drawn by then). */
export const TIPS_KEPT_MS = 86_400_000;

/**
 * The only code that touches the tips. `hunt_tips` holds the tips of the last day, the ones
 * that still change (a pending tip is replaced, a window's draw reads and marks them by
 * `{ round, window }`), so the collection and its indexes stay a day's size whatever the
 * hunt's age. Once a day old, a drawn tip moves to `hunt_drawn_tips` (read for a member's
 * history) and a missed one is deleted: nothing reads it again, its window's draw is fixed.
 */
export class TipStore {
  readonly #tips: Collection<TipDoc>;
  readonly #drawn: Collection<TipDoc>;

  constructor(db: Db) {
    this.#tips = db.collection<TipDoc>(TIPS, { writeConcern: JOURNALED });
    this.#drawn = db.collection<TipDoc>(DRAWN_TIPS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(TIPS).createIndex({ round: 1, window: 1, status: 1 }, { name: 'by_window' }),
      db.collection(TIPS).createIndex({ identity: 1, at: -1 }, { name: 'by_identity' }),
      db.collection(DRAWN_TIPS).createIndex({ identity: 1, at: -1 }, { name: 'by_identity' }),
      // The archive pass: the drawn and missed tips older than a moment.
      db.collection(TIPS).createIndex({ status: 1, at: 1 }, { name: 'by_status_time' }),
    ]);
  }

  /** Stores the identity's tip of a window, replacing a pending one. */
  async put(tip: TipDoc): Promise<void> {
    await this.#tips
      .replaceOne({ _id: tip._id, status: 'pending' }, tip, { upsert: true })
      .catch((error: unknown) => {
        // The window was drawn meanwhile (the tip is no longer pending): the caller is told so.
        if (isDuplicateKey(error)) throw new WindowClosed();
        throw error;
      });
  }

  ofWindow(round: number, window: number): Promise<TipDoc[]> {
    return this.#tips.find({ round, window }).toArray();
  }

  async get(id: string): Promise<TipDoc | null> {
    return (await this.#tips.findOne({ _id: id })) ?? this.#drawn.findOne({ _id: id });
  }

  async mark(ids: string[], status: TipDoc['status'], round: number, window: number): Promise<void> {
    if (ids.length > 0) await this.#tips.updateMany({ _id: { $in: ids } }, { $set: { status } });
    await this.#tips.updateMany({ round, window, status: 'pending' }, { $set: { status: 'missed' } });
  }

  async setScore(id: string, score: number): Promise<void> {
    await this.#tips.updateOne({ _id: id }, { $set: { score } });
  }

  /** An identity's drawn tips, newest first. */
  /** How many of these identities' tips wait for their draw. */
  pendingOf(identities: readonly string[]): Promise<number> {
    return this.#tips.countDocuments({ identity: { $in: [...identities] }, status: 'pending' });
  }

  async history(identity: string, limit: number): Promise<TipDoc[]> {
    const [recent, older] = await Promise.all(
      [this.#tips, this.#drawn].map((c) =>
        c.find({ identity, status: 'drawn' }).sort({ at: -1 }).limit(limit).toArray(),
      ),
    );
    const byId = new Map([...(older ?? []), ...(recent ?? [])].map((tip) => [tip._id, tip]));
    return [...byId.values()].sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, limit);
  }

  /**
   * Moves the drawn tips made before `before` to the history and deletes the missed ones.
   * Copied first, deleted after: a process that dies between leaves a tip in both, which the
   * next pass deletes here (the history's copy is the same tip) and `history` shows once.
   */
  async archive(before: Date): Promise<number> {
    const drawn = await this.#tips.find({ status: 'drawn', at: { $lt: before } }).toArray();
    if (drawn.length > 0) {
      await this.#drawn.insertMany(drawn, { ordered: false }).catch((error: unknown) => {
        if (!isDuplicateKey(error)) throw error;
      });
    }
    const result = await this.#tips.deleteMany({ status: { $in: ['drawn', 'missed'] }, at: { $lt: before } });
    return result.deletedCount;
  }
}

export class WindowClosed extends Error {
  override readonly name = 'WindowClosed';
}
