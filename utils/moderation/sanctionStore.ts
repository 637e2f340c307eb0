import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { SanctionScope } from '../../src/interactions/types.js';

/** A moderator's ban of a member from one scope: one document per member and scope. */
export interface SanctionDoc {
  /** `<member>:<scope>`: two bans of one member in one scope are one record. */
  _id: string;
  member: string;
  scope: SanctionScope;
  /** When it ends (exclusive); null: permanent. */
  until: Date | null;
  reason: string;
  /** The moderator who gave it. */
  by: string;
  at: Date;
}

export const SANCTIONS = 'moderation_sanctions';

export function sanctionId(member: string, scope: SanctionScope): string {
  return `${member}:${scope}`;
}

/** The only code that touches `moderation_sanctions`. */
export class SanctionStore {
  readonly #sanctions: Collection<SanctionDoc>;

  constructor(db: Db) {
    this.#sanctions = db.collection<SanctionDoc>(SANCTIONS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    const sanctions = db.collection(SANCTIONS);
    await sanctions.createIndex({ member: 1 }, { name: 'by_member' });
    await sanctions.createIndex({ until: 1 }, { name: 'by_end' });
  }

  /** Records a ban where the member has none in its scope; false when one is there. */
  async create(doc: SanctionDoc): Promise<boolean> {
    try {
      await this.#sanctions.insertOne(doc);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /**
   * Replaces the recorded ban with `doc` only if it is over at `now` or ends before `doc`, in one
   * guarded write: of two bans given at once, the one that ends later stays, whichever came last.
   */
  async replaceIfEarlier(doc: SanctionDoc, now: Date): Promise<boolean> {
    const { _id, ...fields } = doc;
    const endsEarlier = doc.until === null ? { $ne: null } : { $ne: null, $lt: doc.until };
    const result = await this.#sanctions.updateOne(
      { _id, $or: [{ until: { $ne: null, $lte: now } }, { until: endsEarlier }] },
      { $set: fields },
    );
    return result.matchedCount === 1;
  }

  get(id: string): Promise<SanctionDoc | null> {
    return this.#sanctions.findOne({ _id: id });
  }

  /** The records among `ids`, over or not (one read by `_id`, the check on every action). */
  byIds(ids: readonly string[]): Promise<SanctionDoc[]> {
    return this.#sanctions.find({ _id: { $in: [...ids] } }).toArray();
  }

  /** A member's records, or everyone's, the newest first. */
  list(member?: string): Promise<SanctionDoc[]> {
    return this.#sanctions
      .find(member ? { member } : {})
      .sort({ at: -1 })
      .limit(200)
      .toArray();
  }

  /** Removes a ban and returns it as it was (null: there was none). */
  remove(id: string): Promise<SanctionDoc | null> {
    return this.#sanctions.findOneAndDelete({ _id: id });
  }

  /** Removes the bans over by `now`: they refuse nothing, and the audit channel keeps their story. */
  async removeOver(now: Date): Promise<number> {
    // A range of dates, never null (a permanent ban): read through the `by_end` index.
    const over = { $gte: new Date(0), $lte: now };
    return (await this.#sanctions.deleteMany({ until: over })).deletedCount;
  }
}
