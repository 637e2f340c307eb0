import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { hashServerSeed } from '../games/fairness.js';
import type { ClientSeed } from './game.js';
import { defaultClientSeed } from './handDeck.js';

/**
 * A hand's server seed, committed before the hand is dealt. `_id` is the hand's id,
 * `<table>#<n>`. The seed stays secret until the hand has ended (the service decides when);
 * `players` is written once the hand is dealt, from the table's state.
 */
export interface HandSeedDoc {
  _id: string;
  tableId: string;
  hand: number;
  serverSeed: string;
  serverSeedHash: string;
  committedAt: Date;
  players?: ClientSeed[];
}

/** A member's own client seed for the hands dealt from now on (none stored: `defaultClientSeed`). */
interface ClientSeedDoc {
  _id: string;
  seed: string;
  setAt: Date;
}

export const HAND_SEEDS = 'poker_hand_seeds';
export const CLIENT_SEEDS = 'poker_client_seeds';

/** A hand's id as members read it on the board and type it into `/poker verify`. */
export function handIdOf(tableId: string, hand: number): string {
  return `${tableId}#${hand}`;
}

/** The only code that touches `poker_hand_seeds` and `poker_client_seeds`. */
export class HandSeedStore {
  readonly #hands: Collection<HandSeedDoc>;
  readonly #clients: Collection<ClientSeedDoc>;

  /** `newSeed` makes a secret server seed (crypto.randomBytes in the bot). */
  constructor(
    db: Db,
    private readonly newSeed: () => string,
  ) {
    this.#hands = db.collection<HandSeedDoc>(HAND_SEEDS, { writeConcern: JOURNALED });
    this.#clients = db.collection<ClientSeedDoc>(CLIENT_SEEDS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await db.collection(HAND_SEEDS).createIndex({ tableId: 1, hand: 1 }, { name: 'by_table' });
  }

  /**
   * The server seed of the table's hand `hand`: made and stored on the first call, the same one
   * on every later call. A deal reads it from here, so a deal retried after a crash or lost to a
   * racing process uses the seed whose hash the board already showed.
   */
  async commit(tableId: string, hand: number, now: Date): Promise<HandSeedDoc> {
    const serverSeed = this.newSeed();
    const fresh: HandSeedDoc = {
      _id: handIdOf(tableId, hand),
      tableId,
      hand,
      serverSeed,
      serverSeedHash: hashServerSeed(serverSeed),
      committedAt: now,
    };
    await this.#hands.updateOne({ _id: fresh._id }, { $setOnInsert: fresh }, { upsert: true });
    return (await this.#hands.findOne({ _id: fresh._id })) as HandSeedDoc;
  }

  /** Records the client seeds a dealt hand was shuffled with (from the table's state; safe to repeat). */
  async recordDeal(handId: string, players: ClientSeed[]): Promise<void> {
    await this.#hands.updateOne({ _id: handId }, { $set: { players } });
  }

  get(handId: string): Promise<HandSeedDoc | null> {
    return this.#hands.findOne({ _id: handId });
  }

  /** Each member's client seed for a deal now: their own, or the one derived from their id. */
  async clientSeeds(userIds: readonly string[]): Promise<Map<string, string>> {
    const own = await this.#clients.find({ _id: { $in: [...userIds] } }).toArray();
    const seeds = new Map(userIds.map((id) => [id, defaultClientSeed(id)]));
    for (const doc of own) seeds.set(doc._id, doc.seed);
    return seeds;
  }

  async setClientSeed(userId: string, seed: string, now: Date): Promise<void> {
    await this.#clients.updateOne({ _id: userId }, { $set: { seed, setAt: now } }, { upsert: true });
  }
}
