import type { Collection, Db, Filter } from 'mongodb';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/** Which moderator acted, as members may know it: the role, never the person. */
export type ModeratorRole = 'admin' | 'moderator';

export function roleOf(actor: { isAdmin: boolean }): ModeratorRole {
  return actor.isAdmin ? 'admin' : 'moderator';
}

/**
 * One line of the public moderation log: an applied rollback (the rectangle of the pixels it
 * restored, and how many) or an area protected or unprotected. No member's or moderator's id.
 */
export interface ModerationLogDoc {
  /** `rollback:<rollback id>`, `protect:<area id>` or `unprotect:<area id>`: written once each. */
  _id: string;
  action: 'rollback' | 'protect' | 'unprotect';
  at: Date;
  area: { x1: number; y1: number; x2: number; y2: number };
  /** A rollback's: the pixels it restored. */
  pixels?: number;
  /** A protected area's name (public, as `/api/public/place/areas` shows it). */
  name?: string;
  role: ModeratorRole;
  reason: string | null;
}

/** Where a page of the log ends: the last entry shown (entries are newest first). */
export interface LogCursor {
  at: Date;
  id: string;
}

const LOG = 'place_moderation_log';

/** The only code that touches the public moderation log (`place_moderation_log`). */
export class ModerationLogStore {
  readonly #log: Collection<ModerationLogDoc>;

  constructor(db: Db) {
    this.#log = db.collection<ModerationLogDoc>(LOG);
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await db.collection(LOG).createIndex({ at: -1, _id: -1 }, { name: 'by_time' });
  }

  /** Records an entry once: a resumed rollback writes its line again, and it stays one. */
  async record(entry: ModerationLogDoc): Promise<void> {
    try {
      await this.#log.insertOne(entry);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** Up to `limit` entries older than `before` (or the newest), newest first. */
  page(before: LogCursor | null, limit: number): Promise<ModerationLogDoc[]> {
    const older: Filter<ModerationLogDoc> = before
      ? { $or: [{ at: { $lt: before.at } }, { at: before.at, _id: { $lt: before.id } }] }
      : {};
    return this.#log.find(older).sort({ at: -1, _id: -1 }).limit(limit).toArray();
  }
}
