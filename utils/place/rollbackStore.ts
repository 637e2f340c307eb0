import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';

/** One pixel of a rollback: the state it had before the member's placements, and the revision seen at preview. */
export interface RollbackPixel {
  x: number;
  y: number;
  color: number;
  owner: string | null;
  seenRevision: number;
}

/** A rollback previewed by an admin and waiting for confirmation. */
export interface RollbackDoc {
  _id: string;
  adminId: string;
  target: string;
  pixels: RollbackPixel[];
  /** Milli-points the member paid for the placements undone (refunded only if chosen). */
  refund: number;
  placements: number;
  status: 'previewed' | 'applying' | 'applied' | 'cancelled';
  createdAt: Date;
  /** Chosen when applying starts: whether the member's points come back. */
  refundChosen?: boolean;
  /** The process applying it, until when: one process applies, another resumes after a crash. */
  leaseOwner?: string;
  leaseUntil?: Date;
}

export const ROLLBACKS = 'place_rollbacks';

/** The only code that touches the moderators' rollbacks (`place_rollbacks`). */
export class RollbackStore {
  readonly #rollbacks: Collection<RollbackDoc>;

  constructor(db: Db) {
    this.#rollbacks = db.collection<RollbackDoc>(ROLLBACKS, { writeConcern: JOURNALED });
  }

  async save(plan: RollbackDoc): Promise<void> {
    await this.#rollbacks.insertOne(plan);
  }

  get(id: string): Promise<RollbackDoc | null> {
    return this.#rollbacks.findOne({ _id: id });
  }

  /**
   * The rollbacks being applied whose lease ran out no earlier than `since` (a process at it, or
   * one that died at it and its timer resumes).
   */
  async applyingIds(since: Date): Promise<Set<string>> {
    const applying = await this.#rollbacks
      .find({ status: 'applying', leaseUntil: { $gte: since } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(applying.map((r) => r._id));
  }

  /** Moves a rollback from one status to the next; false if it was no longer in `from`. */
  async setStatus(id: string, from: RollbackDoc['status'][], to: RollbackDoc['status']): Promise<boolean> {
    const result = await this.#rollbacks.updateOne(
      { _id: id, status: { $in: from } },
      { $set: { status: to }, $unset: { leaseOwner: '', leaseUntil: '' } },
    );
    return result.modifiedCount === 1;
  }

  /**
   * Takes the right to apply a rollback until `until`: a previewed one (recording the refund
   * choice), or one left `applying` whose lease ran out (its process died). One guarded update
   * each, so exactly one process applies at a time. The rollback as claimed, or null.
   */
  async claim(
    id: string,
    refund: boolean,
    owner: string,
    now: Date,
    until: Date,
  ): Promise<RollbackDoc | null> {
    const fresh = await this.#rollbacks.findOneAndUpdate(
      { _id: id, status: 'previewed' },
      { $set: { status: 'applying', refundChosen: refund, leaseOwner: owner, leaseUntil: until } },
      { returnDocument: 'after' },
    );
    return (
      fresh ??
      this.#rollbacks.findOneAndUpdate(
        { _id: id, status: 'applying', leaseUntil: { $lte: now } },
        { $set: { leaseOwner: owner, leaseUntil: until } },
        { returnDocument: 'after' },
      )
    );
  }
}
