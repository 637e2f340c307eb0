import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { EffectName } from './effects/effect.js';

/** What a member buys: a Discord role in the server, or an item kept in their inventory. */
export type ItemKind = 'role' | 'item';

/**
 * One thing for sale in one server's shop (`shop_items`). Stock is counted down by the
 * purchases that claim a unit: each claim is one guarded update that also notes the purchase in
 * `claims` until it ends, so a purchase called off returns its unit exactly once, and a
 * purchase that is retried never takes a second.
 */
export interface ShopItemDoc {
  _id: string;
  guildId: string;
  name: string;
  /** The name as compared: lower case, for one item of a name per server. */
  nameKey: string;
  description: string;
  kind: ItemKind;
  /** For an item: what it does (effects/registry.ts). */
  effect: EffectName | null;
  /** For a role: the role given. */
  roleId: string | null;
  /** A role: how long it is held; an item: how long it keeps after purchase. Null: for good. */
  durationH: number | null;
  price: number;
  /** Units left; null: no limit. */
  stockLeft: number | null;
  /** How many one member may buy in all; null: no limit. */
  perMember: number | null;
  /** Only members with this role may buy it. */
  requiredRoleId: string | null;
  /**
   * The purchases that took a unit of the stock, in flight or done (at most the stock ever set,
   * `MAX_STOCK`): a purchase retried finds its id here and takes nothing more.
   */
  claims: string[];
  /** A removed item stays for the purchases that name it, off the shelf. */
  active: boolean;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What a moderator sets when adding or editing an item. */
export type ItemFields = Pick<
  ShopItemDoc,
  'name' | 'description' | 'price' | 'stockLeft' | 'perMember' | 'requiredRoleId' | 'durationH'
>;

/** One member's purchases of one item (`shop_member_counts`), claimed like the stock (their ids in `claims`). */
interface MemberCountDoc {
  _id: string;
  count: number;
  claims: string[];
}

export const SHOP_ITEMS = 'shop_items';
/** The largest stock and per-member limit: each unit sold keeps its purchase's id on the item. */
export const MAX_STOCK = 10_000;
export const MAX_PER_MEMBER = 1_000;
export const SHOP_MEMBER_COUNTS = 'shop_member_counts';

export type Claim = 'claimed' | 'none_left' | 'limit_reached' | 'gone';

/** The only code that touches `shop_items` and `shop_member_counts`. */
export class ItemStore {
  readonly #items: Collection<ShopItemDoc>;
  readonly #counts: Collection<MemberCountDoc>;

  constructor(db: Db) {
    this.#items = db.collection<ShopItemDoc>(SHOP_ITEMS, { writeConcern: JOURNALED });
    this.#counts = db.collection<MemberCountDoc>(SHOP_MEMBER_COUNTS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await db
      .collection(SHOP_ITEMS)
      .createIndex({ guildId: 1, active: 1, nameKey: 1 }, { name: 'shelf_by_name' });
  }

  /** Stores a new item; false when an active item of that name is already in the server's shop. */
  async add(item: ShopItemDoc): Promise<boolean> {
    if (await this.#items.findOne({ guildId: item.guildId, active: true, nameKey: item.nameKey }))
      return false;
    try {
      await this.#items.insertOne(item);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  get(id: string): Promise<ShopItemDoc | null> {
    return this.#items.findOne({ _id: id });
  }

  /** The server's shelf, cheapest first. */
  shelf(guildId: string): Promise<ShopItemDoc[]> {
    return this.#items.find({ guildId, active: true }).sort({ price: 1, nameKey: 1 }).toArray();
  }

  countOnShelf(guildId: string): Promise<number> {
    return this.#items.countDocuments({ guildId, active: true });
  }

  byName(guildId: string, name: string): Promise<ShopItemDoc | null> {
    return this.#items.findOne({ guildId, active: true, nameKey: name.trim().toLowerCase() });
  }

  /** Changes an item on the shelf; null when it is gone. */
  edit(id: string, fields: Partial<ItemFields>, now: Date): Promise<ShopItemDoc | null> {
    const set = { ...fields, updatedAt: now, ...(fields.name ? { nameKey: fields.name.toLowerCase() } : {}) };
    return this.#items.findOneAndUpdate(
      { _id: id, active: true },
      { $set: set },
      { returnDocument: 'after' },
    );
  }

  /** Takes an item off the shelf; false when it was not on it. */
  async remove(id: string, now: Date): Promise<boolean> {
    const r = await this.#items.updateOne(
      { _id: id, active: true },
      { $set: { active: false, updatedAt: now } },
    );
    return r.modifiedCount === 1;
  }

  /** Holds one unit of the stock for `purchase` (again: as before). */
  async claimStock(item: ShopItemDoc, purchase: string): Promise<Claim> {
    if (item.stockLeft === null) return 'claimed';
    const r = await this.#items.updateOne(
      { _id: item._id, active: true, stockLeft: { $gt: 0 }, claims: { $ne: purchase } },
      { $inc: { stockLeft: -1 }, $push: { claims: purchase } },
    );
    if (r.modifiedCount === 1) return 'claimed';
    const now = await this.get(item._id);
    if (now?.claims.includes(purchase)) return 'claimed';
    return now?.active ? 'none_left' : 'gone';
  }

  /** The unit back on the shelf (the purchase was called off); once, whoever asks. */
  async releaseStock(itemId: string, purchase: string): Promise<void> {
    await this.#items.updateOne(
      { _id: itemId, claims: purchase, stockLeft: { $ne: null } },
      { $inc: { stockLeft: 1 }, $pull: { claims: purchase } },
    );
  }

  /** Counts one more of the item for the member, within `limit` (again: as before). */
  async claimForMember(itemId: string, member: string, limit: number, purchase: string): Promise<Claim> {
    const _id = `${itemId}:${member}`;
    for (let tries = 0; tries < 3; tries++) {
      try {
        const r = await this.#counts.updateOne(
          { _id, count: { $lt: limit }, claims: { $ne: purchase } },
          { $inc: { count: 1 }, $push: { claims: purchase } },
          { upsert: true },
        );
        if (r.modifiedCount + r.upsertedCount === 1) return 'claimed';
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      const now = await this.#counts.findOne({ _id });
      if (now?.claims.includes(purchase)) return 'claimed';
      if (now && now.count >= limit) return 'limit_reached';
    }
    return 'limit_reached';
  }

  /** How many of the item the member has bought (purchases in flight included). */
  async boughtBy(itemId: string, member: string): Promise<number> {
    return (await this.#counts.findOne({ _id: `${itemId}:${member}` }))?.count ?? 0;
  }

  /** The purchases that hold the member's count of the item (or a role's lock). */
  async memberClaims(itemId: string, member: string): Promise<string[]> {
    return (await this.#counts.findOne({ _id: `${itemId}:${member}` }))?.claims ?? [];
  }

  async releaseForMember(itemId: string, member: string, purchase: string): Promise<void> {
    await this.#counts.updateOne(
      { _id: `${itemId}:${member}`, claims: purchase },
      { $inc: { count: -1 }, $pull: { claims: purchase } },
    );
  }
}
