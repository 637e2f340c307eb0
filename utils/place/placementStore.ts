import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { TurnBatcher } from '../money/ledger/turnBatcher.js';
import { insertEach } from './bulkWriteStore.js';

/** A placement between "asked" and "written": what recovery needs to finish it alone. */
export interface PlacementDoc {
  _id: string;
  userId: string;
  x: number;
  y: number;
  color: number;
  /** Milli-points. */
  cost: number;
  status: 'debiting' | 'allocated' | 'done' | 'refused';
  revision?: number;
  at: Date;
}

export const PLACEMENTS = 'place_placements';

/** The states of a placement not finished yet (the sweep finishes it). */
const UNFINISHED = { $in: ['debiting', 'allocated'] as PlacementDoc['status'][] };

/** The only code that touches the placements between asked and written (`place_placements`). */
export class PlacementStore {
  readonly #placements: Collection<PlacementDoc>;
  /** Intents arriving in the same turn share one unordered `insertMany` (see PlaceStore). */
  readonly #inserts = new TurnBatcher<PlacementDoc, boolean>((docs) => insertEach(this.#placements, docs));

  constructor(db: Db) {
    this.#placements = db.collection<PlacementDoc>(PLACEMENTS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await db.collection(PLACEMENTS).createIndex({ status: 1, at: 1 }, { name: 'open_first' });
  }

  create(p: PlacementDoc): Promise<boolean> {
    return this.#inserts.call(p);
  }

  get(id: string): Promise<PlacementDoc | null> {
    return this.#placements.findOne({ _id: id });
  }

  async setStatus(id: string, status: PlacementDoc['status']): Promise<void> {
    await this.#placements.updateOne({ _id: id }, { $set: { status } });
  }

  /** Refused for want of points; never over a placement another finisher moved on. */
  async refuse(id: string): Promise<void> {
    await this.#placements.updateOne({ _id: id, status: 'debiting' }, { $set: { status: 'refused' } });
  }

  /** A refused placement asked for again: open, so the sweep finishes it if its payer dies. */
  async reopen(id: string): Promise<void> {
    await this.#placements.updateOne({ _id: id, status: 'refused' }, { $set: { status: 'debiting' } });
  }

  /** Placements refused that were asked for after `since` (index `open_first`). */
  refusedSince(since: Date): Promise<PlacementDoc[]> {
    return this.#placements.find({ status: 'refused', at: { $gt: since } }).toArray();
  }

  /**
   * Deletes finished and refused placements asked for before `before`. A placement's record
   * is its pixel event (kept with the canvas) and its payment (the ledger's); the document only
   * carries it from asked to written, so it is not kept past that: the collection holds what is
   * in flight, not one document per pixel ever placed. The same id asked again
   * after (a client retrying a day late) is paid once and written once all the same: the
   * ledger knows its payment, the events' unique `opId` its pixel.
   */
  async prune(before: Date): Promise<number> {
    const result = await this.#placements.deleteMany({
      status: { $in: ['done', 'refused'] },
      at: { $lt: before },
    });
    return result.deletedCount;
  }

  /** The ids of the placements not finished yet and asked for since `since`, of those named. */
  async unfinishedOf(ids: string[], since: Date): Promise<Set<string>> {
    const open = await this.#placements
      .find({ _id: { $in: ids }, status: UNFINISHED, at: { $gte: since } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(open.map((p) => p._id));
  }

  /** A member's placements not finished yet, asked for since `since`. */
  unfinishedOfMember(userId: string, since: Date): Promise<PlacementDoc[]> {
    return this.#placements.find({ status: UNFINISHED, userId, at: { $gte: since } }).toArray();
  }

  /** Placements not finished since before `before` (recovery). */
  unfinished(before: Date): Promise<PlacementDoc[]> {
    return this.#placements.find({ status: UNFINISHED, at: { $lt: before } }).toArray();
  }
}
