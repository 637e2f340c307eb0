import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import { CONFLICT, CONFLICT_RETRY_LIMIT, retryOnConflict } from '../../src/db/retryOnConflict.js';
import type { Locale } from '../../src/i18n/i18n.js';

/** One request to forget a member, while it runs and after, as the audit's record. */
export interface ErasureDoc {
  _id: string;
  /** The member's Discord id and their workers', while the erasure runs; removed when done. */
  subject?: { id: string; workers: string[] };
  pseudonym: string;
  /** Who asked: `self` (the member, by /privacy forget) or the moderator's id. */
  requestedBy: string;
  /** The server's language of the request: the audit's post is written in it. */
  locale?: Locale;
  state: 'running' | 'done';
  createdAt: Date;
  doneAt?: Date;
  /** What went: Cookies to the vault, points burned (recorded once the accounts are closed). */
  forfeited?: { cookies: number; points: number };
  documents?: { rewritten: number; deleted: number };
  /** One process runs an erasure at a time (two would undo each other's renames). */
  leaseOwner?: string;
  leaseUntil?: Date;
}

export const ERASURES = 'privacy_erasures';

/** The only code that touches `privacy_erasures`. */
export class ErasureStore {
  readonly #erasures: Collection<ErasureDoc>;

  constructor(db: Db) {
    this.#erasures = db.collection<ErasureDoc>(ERASURES, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      // One running erasure per member: a done one keeps no subject, so it leaves the index.
      db
        .collection(ERASURES)
        .createIndex({ 'subject.id': 1 }, { name: 'running_by_subject', unique: true, sparse: true }),
      // The freeze's running ones, read whenever a member's economy is asked (role income
      // pays only members not being forgotten), and the newest done ones.
      db.collection(ERASURES).createIndex({ state: 1, doneAt: -1 }, { name: 'by_state' }),
    ]);
  }

  /** Every member and worker whose erasure runs (the freeze). */
  async runningSubjects(): Promise<string[]> {
    const running = await this.#erasures.find({ state: 'running' }, { projection: { subject: 1 } }).toArray();
    return running.flatMap((e) => (e.subject ? [e.subject.id, ...e.subject.workers] : []));
  }

  /** The accounts are closed and emptied: what went is recorded, and never forfeited again. */
  async forfeited(id: string, owner: string, forfeited: { cookies: number; points: number }): Promise<void> {
    await this.#erasures.updateOne({ _id: id, leaseOwner: owner }, { $set: { forfeited } });
  }

  /** The erasure of `subject` that is running, if one is. */
  running(subject: string): Promise<ErasureDoc | null> {
    return this.#erasures.findOne({ 'subject.id': subject, state: 'running' });
  }

  /** Records a new erasure, or returns the one already running for the same member. */
  create(erasure: ErasureDoc & { subject: { id: string } }): Promise<ErasureDoc> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        try {
          await this.#erasures.insertOne(erasure);
          return erasure;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
        // The running one ended between the insert and this read: insert again.
        return (await this.running(erasure.subject.id)) ?? CONFLICT;
      },
      `recording the erasure of ${erasure.subject.id}`,
    );
  }

  get(id: string): Promise<ErasureDoc | null> {
    return this.#erasures.findOne({ _id: id });
  }

  /** Takes (or renews) the erasure's lease for `owner`; null when another process holds it. */
  claim(id: string, owner: string, now: Date, leaseMs: number): Promise<ErasureDoc | null> {
    return this.#erasures.findOneAndUpdate(
      {
        _id: id,
        state: 'running',
        $or: [{ leaseOwner: owner }, { leaseUntil: { $lt: now } }, { leaseUntil: { $exists: false } }],
      },
      { $set: { leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs) } },
      { returnDocument: 'after' },
    );
  }

  async finish(id: string, owner: string, result: Pick<ErasureDoc, 'documents' | 'doneAt'>): Promise<void> {
    await this.#erasures.updateOne(
      { _id: id, leaseOwner: owner },
      { $set: { ...result, state: 'done' }, $unset: { subject: '', leaseOwner: '', leaseUntil: '' } },
    );
  }

  /** The erasures done, newest first (the audit's list: pseudonyms and dates, no ids). */
  done(limit: number): Promise<ErasureDoc[]> {
    return this.#erasures.find({ state: 'done' }).sort({ doneAt: -1 }).limit(limit).toArray();
  }
}
