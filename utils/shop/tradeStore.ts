import type { Collection, Db, Filter, UpdateFilter } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/** The two sides of a trade: `a` opened it, `b` was asked. */
export type TradeSideName = 'a' | 'b';

export interface TradeUnit {
  id: string;
  name: string;
}

export interface TradeSide {
  userId: string;
  /** The Cookies this side puts in, held in `holdId` while the trade is open. */
  cookies: number;
  holdId: string | null;
  /** How many holds this side has had: each change of amount takes a new one. */
  holdN: number;
  units: TradeUnit[];
}

/** One change of an offer, as a stale Confirm names it. */
export interface TradeChange {
  revision: number;
  by: string;
  what: 'cookies' | 'add' | 'remove';
  /** The new amount, or the item's name. */
  value: string;
}

/**
 * `open` → `settling` (both confirmed this revision; the swap is under way) → `settled`;
 * `open` → `cancelled` (a side cancelled, or its time ran out). From `settling` a trade only
 * goes on to `settled`, and a `cancelled` one never posts: each side's Cookies are posted to
 * the other on both sides, or voided on both.
 */
export type TradeState = 'open' | 'settling' | 'settled' | 'cancelled';

export interface TradeDoc {
  _id: string;
  guildId: string;
  a: TradeSide;
  b: TradeSide;
  state: TradeState;
  revision: number;
  /** The revision each side confirmed, if it did. */
  confirmed: { a: number | null; b: number | null };
  changes: TradeChange[];
  /** The two members, in order, while the trade is open: two members have one open trade at most. */
  openPair?: string;
  expiresAt: Date;
  createdAt: Date;
  endedAt?: Date;
  /** The server's language when it opened: its timer tells the board in it. */
  locale: string;
  /** Where its board is, so a change made by a subcommand or its timer shows there. */
  channelId: string | null;
  messageId: string | null;
}

export const SHOP_TRADES = 'shop_trades';
/** The changes a board remembers: enough to say what a stale Confirm missed. */
const CHANGES_KEPT = 20;

export function pairOf(one: string, other: string): string {
  return [one, other].sort().join(':');
}

/** The only code that touches `shop_trades`. Every change is one guarded update. */
export class TradeStore {
  readonly #trades: Collection<TradeDoc>;

  constructor(db: Db) {
    this.#trades = db.collection<TradeDoc>(SHOP_TRADES, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    const trades = db.collection(SHOP_TRADES);
    await Promise.all([
      trades.createIndex({ openPair: 1 }, { name: 'open_pair_unique', unique: true, sparse: true }),
      trades.createIndex({ 'a.userId': 1, state: 1 }, { name: 'by_opener' }),
      trades.createIndex({ 'b.userId': 1, state: 1 }, { name: 'by_partner' }),
      trades.createIndex({ endedAt: 1 }, { name: 'ended_by_time', sparse: true }),
    ]);
  }

  /** Opens a trade; false when the two members already have one open. */
  async open(trade: TradeDoc): Promise<boolean> {
    try {
      await this.#trades.insertOne(trade);
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return false;
    }
  }

  get(id: string): Promise<TradeDoc | null> {
    return this.#trades.findOne({ _id: id });
  }

  /** A member's newest open trade (in one server when named). */
  newestOpen(userId: string, guildId: string | null): Promise<TradeDoc | null> {
    return this.#trades.findOne(
      {
        state: 'open',
        $or: [{ 'a.userId': userId }, { 'b.userId': userId }],
        ...(guildId ? { guildId } : {}),
      },
      { sort: { createdAt: -1 } },
    );
  }

  /**
   * How many trades not yet ended the member is a side of without Cookies of theirs held in it
   * (those their holds count already).
   */
  countUnheld(userId: string): Promise<number> {
    return this.#trades.countDocuments({
      state: { $in: ['open', 'settling'] },
      $or: [
        { 'a.userId': userId, 'a.holdId': null },
        { 'b.userId': userId, 'b.holdId': null },
      ],
    });
  }

  /**
   * Changes an open trade's offer where `guard` still holds: the revision goes up and both
   * confirmations are cleared, so nobody confirms what they did not see. Null when the trade
   * is no longer open or the guard failed.
   */
  change(
    id: string,
    guard: Filter<TradeDoc>,
    set: Record<string, unknown>,
    change: TradeChange | null,
    extra: Pick<UpdateFilter<TradeDoc>, '$pull' | '$push'> = {},
  ): Promise<TradeDoc | null> {
    const push: Record<string, unknown> = {
      ...((extra.$push ?? {}) as Record<string, unknown>),
      ...(change ? { changes: { $each: [change], $slice: -CHANGES_KEPT } } : {}),
    };
    const update = {
      $set: { ...set, 'confirmed.a': null, 'confirmed.b': null },
      $inc: { revision: 1 },
      ...(extra.$pull ? { $pull: extra.$pull } : {}),
      ...(Object.keys(push).length > 0 ? { $push: push } : {}),
    } as UpdateFilter<TradeDoc>;
    return this.#trades.findOneAndUpdate({ _id: id, state: 'open', ...guard }, update, {
      returnDocument: 'after',
    });
  }

  /** A side confirms the revision it saw; null when the trade moved on (or ended). */
  confirm(id: string, side: TradeSideName, revision: number): Promise<TradeDoc | null> {
    return this.#trades.findOneAndUpdate(
      { _id: id, state: 'open', revision },
      { $set: { [`confirmed.${side}`]: revision } },
      { returnDocument: 'after' },
    );
  }

  /** Both sides confirmed `revision`: the one run that gets here starts the swap. */
  startSettling(id: string, revision: number): Promise<TradeDoc | null> {
    return this.#trades.findOneAndUpdate(
      { _id: id, state: 'open', revision, 'confirmed.a': revision, 'confirmed.b': revision },
      { $set: { state: 'settling' }, $unset: { openPair: '' } },
      { returnDocument: 'after' },
    );
  }

  /** Calls an open trade off (a side cancelled, or its time ran out); null when it was not open. */
  cancel(id: string, now: Date): Promise<TradeDoc | null> {
    return this.#trades.findOneAndUpdate(
      { _id: id, state: 'open' },
      { $set: { state: 'cancelled', endedAt: now }, $unset: { openPair: '' } },
      { returnDocument: 'after' },
    );
  }

  /** The swap is done on both sides. */
  settled(id: string, now: Date): Promise<TradeDoc | null> {
    return this.#trades.findOneAndUpdate(
      { _id: id, state: 'settling' },
      { $set: { state: 'settled', endedAt: now } },
      { returnDocument: 'after' },
    );
  }

  async setMessage(id: string, channelId: string, messageId: string): Promise<void> {
    await this.#trades.updateOne({ _id: id }, { $set: { channelId, messageId } });
  }

  /** Trades that ended (after `since`, when given): what the books hold against their holds. */
  endedBetween(since?: Date): Promise<TradeDoc[]> {
    return this.#trades
      .find({
        state: { $in: ['settled', 'cancelled'] },
        ...(since ? { endedAt: { $gte: since } } : {}),
      })
      .toArray();
  }

  /** Trades that ended before `before`, removed by retention: the ledger keeps what moved. */
  async pruneEnded(before: Date): Promise<number> {
    const r = await this.#trades.deleteMany({
      endedAt: { $lt: before },
      state: { $in: ['settled', 'cancelled'] },
    });
    return r.deletedCount;
  }
}
