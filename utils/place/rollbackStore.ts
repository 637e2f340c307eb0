import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { ModeratorRole } from './moderationLogStore.js';

/**
 * One pixel of a rollback: the state it goes back to (the placement before the member's, or
 * blank), the member's placements on it that this undoes, and the revision seen at preview.
 */
export interface RollbackPixel {
  x: number;
  y: number;
  color: number;
  owner: string | null;
  seenRevision: number;
  /** The placement whose state it goes back to (0: blank), and when that was painted. */
  restores: number;
  paintedAt?: Date;
  /** The member's placements still on the pixel that this undoes, and what they cost. */
  undoes: number[];
  cost: number;
}

/** What an applied rollback undid: pixels restored, and the member's placements on them and their cost. */
export interface Undone {
  pixels: number;
  placements: number;
  cost: number;
}

/** A rollback previewed by an admin and waiting for confirmation. */
export interface RollbackDoc {
  _id: string;
  adminId: string;
  target: string;
  pixels: RollbackPixel[];
  /** The member's placements in the area since the time, undone or not (what the preview found). */
  painted: number;
  /** The placements it would undo (on `pixels`), and what the member paid for them: a refund's most. */
  placements: number;
  refund: number;
  /** Once applied: what it undid (a pixel changed since the preview is not). */
  undone?: Undone;
  status: 'previewed' | 'applying' | 'applied' | 'cancelled';
  createdAt: Date;
  /** Chosen when applying starts: whether the member's points come back. */
  refundChosen?: boolean;
  /** The process applying it, until when: one process applies, another resumes after a crash. */
  leaseOwner?: string;
  leaseUntil?: Date;
  /** Why, as the moderator wrote it (the web asks; Discord does not), and the role they acted in. */
  reason?: string;
  role?: ModeratorRole;
  /** What the web asked for under this plan's key: the same key with another request is refused. */
  request?: string;
}

export const ROLLBACKS = 'place_rollbacks';

/** The only code that touches the moderators' rollbacks (`place_rollbacks`). */
export class RollbackStore {
  readonly #rollbacks: Collection<RollbackDoc>;

  constructor(db: Db) {
    this.#rollbacks = db.collection<RollbackDoc>(ROLLBACKS, { writeConcern: JOURNALED });
  }

  /** Stores a new plan; false when one with its id exists (a double click on the web). */
  async save(plan: RollbackDoc): Promise<boolean> {
    try {
      await this.#rollbacks.insertOne(plan);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
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

  /** Records an applied rollback with what it undid; false if it was no longer applying. */
  async finish(id: string, undone: Undone): Promise<boolean> {
    const result = await this.#rollbacks.updateOne(
      { _id: id, status: 'applying' },
      { $set: { status: 'applied', undone }, $unset: { leaseOwner: '', leaseUntil: '' } },
    );
    return result.modifiedCount === 1;
  }

  /**
   * Every member rolled back, with the placements of theirs undone and whether a refund was
   * chosen (one may be paid already while the rollback is still applying).
   */
  async rolledBack(member?: string): Promise<Map<string, { placements: number; refunded: boolean }>> {
    const docs = await this.#rollbacks
      .find(
        { status: { $in: ['applying', 'applied'] }, ...(member ? { target: member } : {}) },
        { projection: { target: 1, undone: 1, refundChosen: 1 } },
      )
      .toArray();
    const members = new Map<string, { placements: number; refunded: boolean }>();
    for (const doc of docs) {
      const seen = members.get(doc.target) ?? { placements: 0, refunded: false };
      seen.placements += doc.undone?.placements ?? 0;
      seen.refunded ||= doc.refundChosen === true;
      members.set(doc.target, seen);
    }
    return members;
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
