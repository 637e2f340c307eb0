import type { Collection, Db, Filter } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { EffectName } from './effects/effect.js';
import type { ItemKind } from './itemStore.js';

/**
 * Where one unit a member owns stands:
 * `owned` (theirs: usable, giftable, sellable, tradable; a role they hold) → `used` (its effect
 * took place), `selling` → `sold` (bought back by the vault), `expired` (its time ran out; a
 * role taken back). A unit put into a trade stays `owned` with the trade's id in `tradeId`:
 * every move of a unit asks for `tradeId: null`, so it is in one trade at most, and never
 * gifted, sold or used while it is in one.
 */
export type UnitState = 'owned' | 'used' | 'selling' | 'sold' | 'expired';

export interface UnitDoc {
  /** The purchase that made it (one unit per purchase). */
  _id: string;
  guildId: string;
  owner: string;
  itemId: string;
  /** The item's name and kind as they were when bought. */
  name: string;
  kind: ItemKind;
  effect: EffectName | null;
  roleId: string | null;
  /** What the buyer paid: a sale back pays a share of it. */
  paid: number;
  state: UnitState;
  tradeId: string | null;
  /** The operation that last moved or used it (a gift, a steal it stopped, a streak it kept). */
  lastOp: string | null;
  /** What a sale back pays, fixed when the sale starts. */
  saleAmount?: number;
  acquiredAt: Date;
  expiresAt: Date | null;
  endedAt?: Date;
}

export const SHOP_INVENTORY = 'shop_inventory';

/**
 * A unit free to move, as every move asks for it: still `owned`, in no trade, not run out (and,
 * for a sale or a trade, an item: a role is neither sold nor traded).
 */
function free(now: Date, extra: Filter<UnitDoc> = {}): Filter<UnitDoc> {
  return {
    state: 'owned',
    tradeId: null,
    $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
    ...extra,
  };
}

/** The only code that touches `shop_inventory`. */
export class InventoryStore {
  readonly #units: Collection<UnitDoc>;

  constructor(db: Db) {
    this.#units = db.collection<UnitDoc>(SHOP_INVENTORY, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(SHOP_INVENTORY).createIndex({ owner: 1, state: 1 }, { name: 'by_owner' }),
      db.collection(SHOP_INVENTORY).createIndex({ tradeId: 1 }, { name: 'by_trade', sparse: true }),
      db.collection(SHOP_INVENTORY).createIndex({ endedAt: 1 }, { name: 'ended_by_time', sparse: true }),
      db.collection(SHOP_INVENTORY).createIndex({ roleId: 1, guildId: 1, owner: 1 }, { name: 'role_owners' }),
    ]);
  }

  /** The unit a purchase made; a second call (a retried purchase) finds it there. */
  async give(unit: UnitDoc): Promise<void> {
    try {
      await this.#units.insertOne(unit);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  get(id: string): Promise<UnitDoc | null> {
    return this.#units.findOne({ _id: id });
  }

  /** Takes back a unit that a purchase made and then lost to a refusal (its grant undone). */
  async takeBack(id: string): Promise<void> {
    await this.#units.deleteOne({ _id: id, state: 'owned', tradeId: null });
  }

  /** What a member owns now (in one server when named), newest first; expired units left out. */
  owned(owner: string, now: Date, guildId?: string | null): Promise<UnitDoc[]> {
    return this.#units
      .find({
        owner,
        state: 'owned',
        $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
        ...(guildId ? { guildId } : {}),
      })
      .sort({ acquiredAt: -1 })
      .limit(200)
      .toArray();
  }

  /** The unit `lastOp` used, if one was: a retried steal or collect finds what it used. */
  usedBy(owner: string, op: string): Promise<UnitDoc | null> {
    return this.#units.findOne({ owner, lastOp: op, state: 'used' });
  }

  /**
   * Uses one unit of `effect` the member owns (not in a trade, not expired), oldest first,
   * for `op`; null when they own none.
   */
  useOne(
    owner: string,
    effect: EffectName,
    op: string,
    now: Date,
    guildId: string | null,
  ): Promise<UnitDoc | null> {
    return this.#units.findOneAndUpdate(
      free(now, { owner, effect, ...(guildId ? { guildId } : {}) }),
      { $set: { state: 'used', lastOp: op, endedAt: now } },
      { sort: { acquiredAt: 1 }, returnDocument: 'after' },
    );
  }

  /** Uses this unit, if the member owns it and it is free; null otherwise. */
  use(id: string, owner: string, op: string, now: Date): Promise<UnitDoc | null> {
    return this.#units.findOneAndUpdate(
      free(now, { _id: id, owner }),
      { $set: { state: 'used', lastOp: op, endedAt: now } },
      { returnDocument: 'after' },
    );
  }

  /** Moves a free unit from one member to another, for `op`; null when it is not `from`'s to give. */
  hand(id: string, from: string, to: string, op: string, now: Date): Promise<UnitDoc | null> {
    return this.#units.findOneAndUpdate(
      free(now, { _id: id, owner: from }),
      { $set: { owner: to, lastOp: op } },
      { returnDocument: 'after' },
    );
  }

  /** Starts a sale back of a free unit: it leaves the member's hands. */
  startSale(id: string, owner: string, amount: number, op: string, now: Date): Promise<UnitDoc | null> {
    return this.#units.findOneAndUpdate(
      free(now, { _id: id, owner, kind: 'item' }),
      { $set: { state: 'selling', saleAmount: amount, lastOp: op } },
      { returnDocument: 'after' },
    );
  }

  /** Ends a sale: `sold` once paid, or `owned` again when the vault could not pay. */
  async endSale(id: string, to: 'sold' | 'owned', now: Date): Promise<void> {
    await this.#units.updateOne(
      { _id: id, state: 'selling' },
      to === 'sold'
        ? { $set: { state: 'sold', endedAt: now } }
        : { $set: { state: 'owned' }, $unset: { saleAmount: '' } },
    );
  }

  /** A role's time is over (or its item's): the unit stays as a record. */
  async expire(id: string, now: Date): Promise<void> {
    await this.#units.updateOne({ _id: id, state: 'owned' }, { $set: { state: 'expired', endedAt: now } });
  }

  /** Puts a free unit of `owner`'s into a trade; null when it is not free. */
  lock(id: string, owner: string, tradeId: string, now: Date): Promise<UnitDoc | null> {
    return this.#units.findOneAndUpdate(
      free(now, { _id: id, owner, kind: 'item' }),
      { $set: { tradeId } },
      { returnDocument: 'after' },
    );
  }

  /** Frees the units a trade holds (all, or these). */
  async unlock(tradeId: string, ids?: readonly string[]): Promise<void> {
    await this.#units.updateMany(
      { tradeId, ...(ids ? { _id: { $in: [...ids] } } : {}) },
      { $set: { tradeId: null } },
    );
  }

  /** A trade's swap: its units from `from` go to `to` and are free again. Safe to repeat. */
  async swap(tradeId: string, ids: readonly string[], from: string, to: string): Promise<void> {
    if (ids.length === 0) return;
    await this.#units.updateMany(
      { _id: { $in: [...ids] }, tradeId, owner: from },
      { $set: { owner: to, tradeId: null, lastOp: `trade:${tradeId}` } },
    );
  }

  /**
   * Up to `limit` members who own the shop's `roleId` in the server now, in id order after
   * `after`: a page of the role's holders by purchase, from the moment it was given.
   */
  async roleOwners(
    guildId: string,
    roleId: string,
    after: string,
    limit: number,
    now: Date,
  ): Promise<string[]> {
    const rows = await this.#units
      .aggregate<{ _id: string }>([
        {
          $match: {
            roleId,
            guildId,
            kind: 'role',
            state: 'owned',
            owner: { $gt: after },
            $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
          },
        },
        { $group: { _id: '$owner' } },
        { $sort: { _id: 1 } },
        { $limit: limit },
      ])
      .toArray();
    return rows.map((r) => r._id);
  }

  /** The units a trade holds. */
  inTrade(tradeId: string): Promise<UnitDoc[]> {
    return this.#units.find({ tradeId }).toArray();
  }

  /** Units that ended before `before` (used, sold, expired), removed by retention. */
  async pruneEnded(before: Date): Promise<number> {
    const r = await this.#units.deleteMany({
      endedAt: { $lt: before },
      state: { $in: ['used', 'sold', 'expired'] },
    });
    return r.deletedCount;
  }
}
