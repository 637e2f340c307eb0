import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import { type HandRecord, netOf } from './handRecord.js';

/**
 * A member's part in one hand, beside the hand's record: what the stats, the leaderboard and a
 * member's history read, by member or by server, without opening every hand.
 */
export interface HandPlayerDoc {
  /** `<hand record id>:<member>`. */
  _id: string;
  handId: string;
  tableId: string;
  guildId: string | null;
  userId: string;
  seat: number;
  endedAt: Date;
  net: number;
  collected: number;
  vpip: boolean;
}

export interface PlayerStats {
  hands: number;
  vpipHands: number;
  net: number;
  biggestPot: number;
}

export interface BoardRow {
  userId: string;
  net: number;
  hands: number;
}

export const HANDS = 'poker_hands';
export const HAND_PLAYERS = 'poker_hand_players';

/** The only code that touches `poker_hands` and `poker_hand_players`: the books of every hand played. */
export class HandStore {
  readonly #hands: Collection<HandRecord>;
  readonly #players: Collection<HandPlayerDoc>;

  constructor(db: Db) {
    this.#hands = db.collection<HandRecord>(HANDS, { writeConcern: JOURNALED });
    this.#players = db.collection<HandPlayerDoc>(HAND_PLAYERS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      // A member's last hands, newest first; and their stats.
      db.collection(HAND_PLAYERS).createIndex({ userId: 1, endedAt: -1 }, { name: 'by_member' }),
      // A server's leaderboard.
      db.collection(HAND_PLAYERS).createIndex({ guildId: 1, endedAt: -1 }, { name: 'by_server' }),
    ]);
  }

  /**
   * Writes a hand's record once, whoever finishes it and however often: each document is keyed
   * by the hand (and member), inserted only when missing. Its members' rows go first and the hand
   * last, so a hand's record standing means its rows do too.
   */
  async record(hand: HandRecord): Promise<void> {
    for (const seat of hand.seats) {
      await this.#insertOnce(this.#players, {
        _id: `${hand._id}:${seat.userId}`,
        handId: hand._id,
        tableId: hand.tableId,
        guildId: hand.guildId,
        userId: seat.userId,
        seat: seat.seat,
        endedAt: hand.endedAt,
        // Tournament chips are not Cookies: such a hand counts for hands played and VPIP only.
        net: hand.tournament ? 0 : netOf(seat),
        collected: hand.tournament ? 0 : seat.collected,
        vpip: seat.vpip,
      });
    }
    await this.#insertOnce(this.#hands, hand);
  }

  async #insertOnce<T extends { _id: string }>(collection: Collection<T>, doc: T): Promise<void> {
    try {
      await collection.updateOne({ _id: doc._id } as never, { $setOnInsert: doc } as never, { upsert: true });
    } catch (error) {
      // Two writers upserting the same hand at once: one inserts, the other finds it there.
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** Whether the hand's record is written (its rows are then too). */
  async has(handId: string): Promise<boolean> {
    return (await this.#hands.countDocuments({ _id: handId }, { limit: 1 })) > 0;
  }

  /** A member's last `count` hands, newest first. */
  async lastOf(userId: string, count: number): Promise<{ row: HandPlayerDoc; hand: HandRecord }[]> {
    const rows = await this.#players.find({ userId }).sort({ endedAt: -1, _id: -1 }).limit(count).toArray();
    const hands = await this.#hands.find({ _id: { $in: rows.map((r) => r.handId) } }).toArray();
    const byId = new Map(hands.map((h) => [h._id, h]));
    return rows.flatMap((row) => {
      const hand = byId.get(row.handId);
      return hand ? [{ row, hand }] : [];
    });
  }

  async statsOf(userId: string): Promise<PlayerStats> {
    const [row] = await this.#players
      .aggregate<PlayerStats>([
        { $match: { userId } },
        {
          $group: {
            _id: null,
            hands: { $sum: 1 },
            vpipHands: { $sum: { $cond: ['$vpip', 1, 0] } },
            net: { $sum: '$net' },
            biggestPot: { $max: '$collected' },
          },
        },
      ])
      .toArray();
    return {
      hands: row?.hands ?? 0,
      vpipHands: row?.vpipHands ?? 0,
      net: row?.net ?? 0,
      biggestPot: row?.biggestPot ?? 0,
    };
  }

  /** A server's players by their net over every hand played there, best first. */
  async board(guildId: string, size: number): Promise<BoardRow[]> {
    return this.#players
      .aggregate<BoardRow>([
        { $match: { guildId } },
        { $group: { _id: '$userId', net: { $sum: '$net' }, hands: { $sum: 1 } } },
        { $sort: { net: -1, hands: -1, _id: 1 } },
        { $limit: size },
        { $project: { _id: 0, userId: '$_id', net: 1, hands: 1 } },
      ])
      .toArray();
  }
}
