import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { RoleRefusal } from '../../src/roles/memberRoles.js';
import type { ShopItemDoc } from './itemStore.js';

/** Why a purchase was called off and its price returned. */
/** `role_held`: another purchase of the same role by the member is under way or in force. */
export type PurchaseFailure =
  | 'not_enough'
  | 'none_left'
  | 'limit_reached'
  | 'gone'
  | 'late'
  | 'role_held'
  | RoleRefusal;

/**
 * One purchase (`shop_purchases`), a saga over one hold (utils/money/holds/):
 * `open` (the price is being reserved, then the stock and the member's count claimed, then the
 * role or item given) → `granted` (given; the price is being posted to the vault) → `done`; or
 * `open` → `failed` (the hold voided, every claim returned). Each step is idempotent and keyed by
 * the purchase's id, so the buyer's process, its timer and a restarted bot finish it the same
 * way, once.
 */
export interface PurchaseDoc {
  _id: string;
  guildId: string;
  userId: string;
  /** The item as it was when bought: an edit after changes nothing here. */
  item: Pick<
    ShopItemDoc,
    '_id' | 'name' | 'kind' | 'effect' | 'roleId' | 'durationH' | 'price' | 'perMember'
  >;
  state: 'open' | 'granted' | 'done' | 'failed';
  failure?: PurchaseFailure;
  /** The vault takes the price, or it is burned (`shop.sales_to_vault`). */
  toVault: boolean;
  /**
   * What Discord's audit log says of the role's changes, in the server's language: given when
   * bought, taken back when its time is over or the purchase was called off.
   */
  reasons?: { given: string; ended: string; calledOff: string };
  /** A role bought for a while: when it is taken back. */
  roleUntil?: Date | null;
  createdAt: Date;
  endedAt?: Date;
}

export const SHOP_PURCHASES = 'shop_purchases';

/** The only code that touches `shop_purchases`. */
export class PurchaseStore {
  readonly #purchases: Collection<PurchaseDoc>;

  constructor(db: Db) {
    this.#purchases = db.collection<PurchaseDoc>(SHOP_PURCHASES, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(SHOP_PURCHASES).createIndex({ state: 1, endedAt: 1 }, { name: 'ended_by_time' }),
      db.collection(SHOP_PURCHASES).createIndex({ guildId: 1, createdAt: -1 }, { name: 'server_newest' }),
    ]);
  }

  /** Records a new purchase; the one already recorded under its id when there is one. */
  async open(purchase: PurchaseDoc): Promise<PurchaseDoc> {
    try {
      await this.#purchases.insertOne(purchase);
      return purchase;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.get(purchase._id)) ?? purchase;
    }
  }

  get(id: string): Promise<PurchaseDoc | null> {
    return this.#purchases.findOne({ _id: id });
  }

  /** The purchases of `ids` that are stored (retention removes ended ones). */
  among(ids: readonly string[]): Promise<PurchaseDoc[]> {
    return this.#purchases.find({ _id: { $in: [...ids] } }).toArray();
  }

  /** Moves the purchase on from `from`; the purchase as it then is (moved, or as another writer left it). */
  async move(
    id: string,
    from: PurchaseDoc['state'],
    set: Partial<Pick<PurchaseDoc, 'state' | 'failure' | 'roleUntil' | 'endedAt'>>,
  ): Promise<PurchaseDoc | null> {
    return (
      (await this.#purchases.findOneAndUpdate(
        { _id: id, state: from },
        { $set: set },
        { returnDocument: 'after' },
      )) ?? this.get(id)
    );
  }

  /** Purchases that ended (done or called off) in [since, until), for the books and the health view. */
  endedBetween(since: Date | undefined, until?: Date): Promise<PurchaseDoc[]> {
    return this.#purchases
      .find({
        state: { $in: ['done', 'failed'] },
        ...(since || until
          ? { endedAt: { ...(since ? { $gte: since } : {}), ...(until ? { $lt: until } : {}) } }
          : {}),
      })
      .toArray();
  }

  /** Ended purchases older than `before`, removed by retention (the ledger keeps what was paid). */
  async pruneEnded(before: Date): Promise<number> {
    const r = await this.#purchases.deleteMany({
      state: { $in: ['done', 'failed'] },
      endedAt: { $lt: before },
    });
    return r.deletedCount;
  }
}
