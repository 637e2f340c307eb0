import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import type { Game } from './engine.js';
import type { SitAndGo, SitAndGoRules } from './sitAndGo.js';

/**
 * A Cookie operation of a table between "decided" and "confirmed": a buy-in (member → table
 * pot), a cash-out (table pot → member; at a tournament, a registration's refund), the rake
 * (table pot → vault) or a tournament's prize (table pot → member). `applying`: the
 * state has not absorbed it yet; `applied`: the state has, and only the confirmation that
 * the ledger recorded it is missing. The pending moves are the table's markers of Cookie
 * operations in flight: stored only while there is one (the field is unset when the last goes).
 */
export interface PendingMove {
  op: string;
  kind: 'buyin' | 'cashout' | 'rake' | 'prize';
  seat: number;
  userId: string;
  amount: number;
  /** The sitting the move belongs to (see `TableDoc.sittings`). */
  sitting: number;
  state: 'applying' | 'applied';
  at: Date;
}

export interface TableDoc {
  _id: string;
  hostId: string;
  channelId: string | null;
  /** The server it was opened in (its hands count on that server's leaderboard); absent on older tables. */
  guildId?: string | null;
  /** The board message, once known (the first press on it tells). */
  messageId: string | null;
  /** The server's language, for what timers post. */
  locale: string;
  status: 'open' | 'playing' | 'closed';
  /** When the hand in play (or the last one) was dealt. */
  dealtAt?: Date;
  /**
   * Hands in a row that ended with no member action (every turn run out): at `QUIET_HANDS` the
   * table pauses until someone deals (absent: none).
   */
  quietHands?: number;
  game: Game;
  minBuyIn: number;
  maxBuyIn: number;
  /** Counts every write of the table (the guard of each update). */
  version: number;
  /** Counts the game's moves (deals, actions, folds): a press and a turn timer name the step they saw. */
  step: number;
  pending: PendingMove[];
  /**
   * A sit-and-go (sitAndGo.ts): its chips are tournament chips, counted there, and `chips`
   * counts its Cookies (buy-ins in; refunds and prizes out). Absent at a cash table.
   */
  sng?: SitAndGo;
  /** Confirmed totals in chips (= Cookies at a cash table): bought in, cashed out, raked. */
  chips: { in: number; out: number; rake: number };
  /** Sittings per seat so far: the n in `poker_buyin:<table>:<seat>:<n>` and its cash-out. */
  sittings: number[];
  createdAt: Date;
  /** The last member action (join, press, start): what the abandonment timer measures from. */
  lastActionAt: Date;
  /** When the game last moved: the turn countdown runs from here. */
  stepAt: Date;
  /**
   * SHA-256 of the server seed stored for the next hand (number `game.handsPlayed + 1`): shown
   * on the board before that hand is dealt (absent on tables opened before decks had seeds).
   */
  nextSeedHash?: string;
  /** When the table closed (absent on tables closed before it was recorded). */
  closedAt?: Date;
}

/** What opening a table asks for: the blinds and the largest buy-in default to the settings. */
export interface TableRequest {
  tableId: string;
  hostId: string;
  smallBlind?: number;
  maxBuyIn?: number;
  channelId: string | null;
  guildId?: string | null;
  locale: string;
  /** A sit-and-go's rules instead of a cash table's buy-in range. */
  sng?: SitAndGoRules;
}

export const TABLES = 'poker_tables';

/** A table as stored: `pending` only while a Cookie operation is in flight, never `[]`. */
type StoredTable = Omit<TableDoc, 'pending'> & { pending?: PendingMove[] };

function fromStored(doc: StoredTable): TableDoc {
  return { ...doc, pending: doc.pending ?? [] };
}

/** The only code that touches `poker_tables`. */
export class TableStore {
  readonly #tables: Collection<StoredTable>;

  constructor(db: Db) {
    this.#tables = db.collection<StoredTable>(TABLES, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(TABLES).createIndex({ status: 1, lastActionAt: 1 }, { name: 'by_status' }),
      // Only tables with a Cookie operation in flight have `pending` (the checker's read).
      db.collection(TABLES).createIndex({ 'pending.op': 1 }, { name: 'in_flight', sparse: true }),
      db.collection(TABLES).createIndex({ channelId: 1, status: 1, createdAt: -1 }, { name: 'by_channel' }),
      // The checker's tables closed since a checkpoint.
      db.collection(TABLES).createIndex({ status: 1, closedAt: 1 }, { name: 'closed_by_time' }),
    ]);
  }

  async create(table: TableDoc): Promise<void> {
    const { pending, ...rest } = table;
    await this.#tables.insertOne(pending.length > 0 ? table : rest);
  }

  async get(id: string): Promise<TableDoc | null> {
    const doc = await this.#tables.findOne({ _id: id });
    return doc && fromStored(doc);
  }

  /** The newest table of the channel that is not closed (what `/poker join` sits down at). */
  async openIn(channelId: string): Promise<TableDoc | null> {
    const doc = await this.#tables.findOne(
      { channelId, status: { $ne: 'closed' } },
      { sort: { createdAt: -1, _id: -1 } },
    );
    return doc && fromStored(doc);
  }

  /** Remembers the board message; no game state changes. */
  async setMessage(id: string, messageId: string): Promise<void> {
    await this.#tables.updateOne({ _id: id }, { $set: { messageId } });
  }

  /**
   * Writes the next state if the table is still at `version` (one guarded update): two
   * presses or processes racing on one table change it one after the other, never both from
   * the same state. An empty `pending` is unset, never left as `[]`.
   */
  async swap(current: TableDoc, next: Omit<TableDoc, '_id' | 'version'>): Promise<TableDoc | null> {
    const { pending, ...rest } = next;
    const doc = await this.#tables.findOneAndUpdate(
      { _id: current._id, version: current.version },
      {
        $set: { ...rest, version: current.version + 1, ...(pending.length > 0 ? { pending } : {}) },
        ...(pending.length === 0 ? { $unset: { pending: '' } } : {}),
      },
      { returnDocument: 'after' },
    );
    return doc && fromStored(doc);
  }

  /** The tables not closed that a member hosts, sits at or has a move in flight at. */
  async openWith(userId: string): Promise<TableDoc[]> {
    const found = await this.#tables
      .find({
        status: { $ne: 'closed' },
        $or: [{ hostId: userId }, { 'game.seats.userId': userId }, { 'pending.userId': userId }],
      })
      .toArray();
    return found.map(fromStored);
  }

  /**
   * Every table; from a checkpoint `since` (the checker), those not closed, those closed since,
   * and those still holding Cookie operations in flight, whenever they closed. Read one after
   * the other, open ones first, so a table closing meanwhile is in one of them.
   */
  async *all(since?: Date): AsyncIterable<TableDoc> {
    if (!since) {
      for await (const table of this.#tables.find({})) yield fromStored(table);
      return;
    }
    const seen = new Set<string>();
    for (const filter of [
      { status: { $in: ['open' as const, 'playing' as const] } },
      { status: 'closed' as const, closedAt: { $gte: since } },
      // The in-flight index keeps only tables with some: the field is unset when none are left.
      { 'pending.op': { $exists: true } },
    ]) {
      for await (const table of this.#tables.find(filter)) {
        if (seen.has(table._id)) continue;
        seen.add(table._id);
        yield fromStored(table);
      }
    }
  }
}
