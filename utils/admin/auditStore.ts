import type { Collection, Db, Filter } from 'mongodb';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { AuditKind } from './auditKinds.js';

/** One action of a moderator or an admin, kept once by the action's own id. */
export interface AuditDoc {
  /** The action's own id (its operation id, or the interaction's): a repeated record is this one. */
  _id: string;
  kind: AuditKind;
  actorId: string;
  /** The member the action concerns, when it concerns one. */
  subjectId?: string;
  /** The line the audit channel got, in the server's language, with Discord's markup. */
  text: string;
  at: Date;
}

/** Which entries: all of one kind, by one actor, about one member (each optional). */
export interface AuditFilter {
  kind?: AuditKind;
  actorId?: string;
  subjectId?: string;
}

/** Where a page ends: the entries after it are older, or as old with a smaller id. */
export interface AuditPosition {
  at: Date;
  id: string;
}

export const AUDIT = 'admin_audit';

/** The only code that touches `admin_audit`. */
export class AuditStore {
  readonly #entries: Collection<AuditDoc>;

  constructor(db: Db) {
    this.#entries = db.collection<AuditDoc>(AUDIT);
  }

  /** Newest first, ties by id: each filter reads its own index in the order the pages go. */
  static async ensureIndexes(db: Db): Promise<void> {
    const entries = db.collection(AUDIT);
    await entries.createIndex({ at: -1, _id: -1 }, { name: 'by_time' });
    await entries.createIndex({ actorId: 1, at: -1, _id: -1 }, { name: 'by_actor' });
    await entries.createIndex({ kind: 1, at: -1, _id: -1 }, { name: 'by_kind' });
    await entries.createIndex({ subjectId: 1, at: -1, _id: -1 }, { name: 'by_subject' });
  }

  /** Keeps the entry unless its id is kept already (the first one stays as it was). */
  async keep(doc: AuditDoc): Promise<void> {
    const { _id, ...fields } = doc;
    try {
      await this.#entries.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
    } catch (error) {
      // Two records of one action at once: the other's upsert inserted it.
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** Up to `limit` entries that match, newest first, after `before` when given. */
  page(filter: AuditFilter, options: { before?: AuditPosition; limit: number }): Promise<AuditDoc[]> {
    const where: Filter<AuditDoc> = {};
    if (filter.kind) where.kind = filter.kind;
    if (filter.actorId) where.actorId = filter.actorId;
    if (filter.subjectId) where.subjectId = filter.subjectId;
    const { before } = options;
    if (before) where.$or = [{ at: { $lt: before.at } }, { at: before.at, _id: { $lt: before.id } }];
    return this.#entries.find(where).sort({ at: -1, _id: -1 }).limit(options.limit).toArray();
  }

  /** Removes the entries from before `cutoff`. */
  async removeBefore(cutoff: Date): Promise<number> {
    return (await this.#entries.deleteMany({ at: { $lt: cutoff } })).deletedCount;
  }
}
