import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

const AREAS = 'place_areas';

/** A protected rectangle of the canvas, corners inclusive; `roleId` null: moderators only. */
export interface AreaDoc {
  _id: string;
  name: string;
  /** The name folded to lower case: names are unique whatever their case. */
  key: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  roleId: string | null;
  by: string;
  at: Date;
}

/** The protected areas (`place_areas`): a few dozen documents, read whole or by pixel. */
export class AreaStore {
  readonly #areas: Collection<AreaDoc>;

  constructor(db: Db) {
    this.#areas = db.collection<AreaDoc>(AREAS);
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await db.collection(AREAS).createIndex({ key: 1 }, { name: 'by_name', unique: true });
  }

  /** Stores a new area; false when its name is taken. */
  async insert(area: AreaDoc): Promise<boolean> {
    try {
      await this.#areas.insertOne(area);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Removes the area of that name (any case); the removed one, or null. */
  remove(name: string): Promise<AreaDoc | null> {
    return this.#areas.findOneAndDelete({ key: name.toLowerCase() });
  }

  count(): Promise<number> {
    return this.#areas.countDocuments({});
  }

  /** How many areas came before this one (oldest first, then by id): its place in the list. */
  countBefore(area: Pick<AreaDoc, '_id' | 'at'>): Promise<number> {
    return this.#areas.countDocuments({
      $or: [{ at: { $lt: area.at } }, { at: area.at, _id: { $lt: area._id } }],
    });
  }

  /** Takes back an area just stored (one past the limit). */
  async discard(id: string): Promise<void> {
    await this.#areas.deleteOne({ _id: id });
  }

  /** Every area, oldest first. */
  all(): Promise<AreaDoc[]> {
    return this.#areas.find({}).sort({ at: 1, _id: 1 }).toArray();
  }

  /** The areas that cover one pixel. */
  covering(x: number, y: number): Promise<AreaDoc[]> {
    return this.#areas
      .find({ x1: { $lte: x }, x2: { $gte: x }, y1: { $lte: y }, y2: { $gte: y } })
      .sort({ at: 1, _id: 1 })
      .toArray();
  }
}
