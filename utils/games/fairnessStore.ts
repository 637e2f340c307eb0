import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import { hashServerSeed, type RoundSeed } from './fairness.js';

/** A member's current seeds: the server seed stays secret until it is rotated out. */
export interface FairnessDoc {
  _id: string;
  serverSeed: string;
  serverSeedHash: string;
  memberSeed: string;
  /** The next round's nonce (rounds played with this server seed so far). */
  nonce: number;
  createdAt: Date;
}

/** A server seed that was rotated out, revealed with the member seed and the nonces it served. */
export interface RevealedSeedDoc {
  _id: string;
  userId: string;
  serverSeed: string;
  rounds: number;
  revealedAt: Date;
}

export const FAIRNESS = 'games_fairness';
export const REVEALED_SEEDS = 'games_revealed_seeds';

/** The only code that touches `games_fairness` and `games_revealed_seeds`. */
export class FairnessStore {
  readonly #current: Collection<FairnessDoc>;
  readonly #revealed: Collection<RevealedSeedDoc>;

  /** `seeds` makes new server and member seeds (crypto.randomBytes in the bot; tests and scripts inject theirs). */
  constructor(
    db: Db,
    private readonly seeds: { server: () => string; member: () => string },
  ) {
    this.#current = db.collection<FairnessDoc>(FAIRNESS, { writeConcern: JOURNALED });
    this.#revealed = db.collection<RevealedSeedDoc>(REVEALED_SEEDS, { writeConcern: JOURNALED });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(REVEALED_SEEDS).createIndex({ userId: 1, revealedAt: -1 }, { name: 'by_user' }),
      db.collection(FAIRNESS).createIndex({ serverSeedHash: 1 }, { name: 'by_hash' }),
    ]);
  }

  /** The member's seeds, created on first use. */
  async current(userId: string, now: Date): Promise<FairnessDoc> {
    const found = await this.#current.findOne({ _id: userId });
    if (found) return found;
    const serverSeed = this.seeds.server();
    const doc: FairnessDoc = {
      _id: userId,
      serverSeed,
      serverSeedHash: hashServerSeed(serverSeed),
      memberSeed: this.seeds.member(),
      nonce: 0,
      createdAt: now,
    };
    try {
      await this.#current.insertOne(doc);
      return doc;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.#current.findOne({ _id: userId })) as FairnessDoc;
    }
  }

  /** Takes the next nonce atomically: two rounds never share one. */
  async claimRound(userId: string, now: Date): Promise<RoundSeed & { serverSeed: string }> {
    await this.current(userId, now);
    const doc = (await this.#current.findOneAndUpdate(
      { _id: userId },
      { $inc: { nonce: 1 } },
      { returnDocument: 'before' },
    )) as FairnessDoc;
    return {
      serverSeed: doc.serverSeed,
      serverSeedHash: doc.serverSeedHash,
      memberSeed: doc.memberSeed,
      nonce: doc.nonce,
    };
  }

  async setMemberSeed(userId: string, memberSeed: string, now: Date): Promise<FairnessDoc> {
    await this.current(userId, now);
    return (await this.#current.findOneAndUpdate(
      { _id: userId },
      { $set: { memberSeed } },
      { returnDocument: 'after' },
    )) as FairnessDoc;
  }

  /**
   * Reveals the current server seed and commits to a new one. The old seed is written to the
   * revealed list before it is replaced, and the swap only happens if nobody rotated meanwhile.
   */
  async rotate(userId: string, now: Date): Promise<{ revealed: RevealedSeedDoc; next: FairnessDoc }> {
    for (;;) {
      const doc = await this.current(userId, now);
      const revealed: RevealedSeedDoc = {
        _id: doc.serverSeedHash,
        userId,
        serverSeed: doc.serverSeed,
        rounds: doc.nonce,
        revealedAt: now,
      };
      await this.#revealed.updateOne({ _id: revealed._id }, { $setOnInsert: revealed }, { upsert: true });
      const serverSeed = this.seeds.server();
      const next = await this.#current.findOneAndUpdate(
        { _id: userId, serverSeedHash: doc.serverSeedHash },
        { $set: { serverSeed, serverSeedHash: hashServerSeed(serverSeed), nonce: 0, createdAt: now } },
        { returnDocument: 'after' },
      );
      if (next) return { revealed, next };
    }
  }

  /** The server seed behind a hash, whether still in use (for the round's own draws) or revealed. */
  async serverSeed(hash: string): Promise<{ serverSeed: string; revealed: boolean } | null> {
    const revealed = await this.#revealed.findOne({ _id: hash });
    if (revealed) return { serverSeed: revealed.serverSeed, revealed: true };
    const current = await this.#current.findOne({ serverSeedHash: hash });
    return current ? { serverSeed: current.serverSeed, revealed: false } : null;
  }
}
