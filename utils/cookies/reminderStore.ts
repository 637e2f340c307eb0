import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/** One reminder being sent or sent: its task's id, which names the member, the kind and the due time. */
export interface SentReminderDoc {
  _id: string;
  userId: string;
  kind: string;
  at: Date;
  /** Removed by the database after this (its TTL index): by then its task is long gone. */
  expiresAt: Date;
}

export const COOKIES_REMINDERS_SENT = 'cookies_reminders_sent';

/** Long enough to outlive any run of the task that sends it (retries included). */
const KEPT_MS = 2 * 86_400_000;

/**
 * The only code that touches `cookies_reminders_sent`: a record claimed before a reminder is
 * sent, so a second run of its task (another process after a lease ran out, a process that
 * died after sending) finds it and sends nothing. A reminder is sent at most once.
 */
export class ReminderStore {
  readonly #docs: Collection<SentReminderDoc>;

  constructor(db: Db) {
    this.#docs = db.collection<SentReminderDoc>(COOKIES_REMINDERS_SENT);
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await db
      .collection(COOKIES_REMINDERS_SENT)
      .createIndex({ expiresAt: 1 }, { name: 'ttl', expireAfterSeconds: 0 });
  }

  /** Claims the sending of reminder `id`; false when another run claimed it first. */
  async claim(reminder: { id: string; userId: string; kind: string }, now: Date): Promise<boolean> {
    try {
      await this.#docs.insertOne({
        _id: reminder.id,
        userId: reminder.userId,
        kind: reminder.kind,
        at: now,
        expiresAt: new Date(now.getTime() + KEPT_MS),
      });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Gives a claim back after a sending that failed and will be tried again. */
  async release(id: string): Promise<void> {
    await this.#docs.deleteOne({ _id: id });
  }
}
