import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import { CONFLICT, CONFLICT_RETRY_LIMIT, retryOnConflict } from '../../src/db/retryOnConflict.js';
import { AppError } from '../../src/errors.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
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
  /** Rounds drawn from this seed and not yet ended: while any is, the seed cannot be revealed. */
  openRounds?: { id: string; at: Date }[];
  /** A seed just rotated out, kept here until its revealed record is written (a crash between). */
  previous?: { serverSeed: string; serverSeedHash: string; rounds: number; at: Date };
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

  /**
   * Takes the next nonce atomically (two rounds never share one) and marks the round open on the
   * seed, in the same update: a rotation can only happen before it or after the round ended.
   */
  async claimRound(userId: string, now: Date, roundId: string): Promise<RoundSeed & { serverSeed: string }> {
    await this.current(userId, now);
    const doc = (await this.#current.findOneAndUpdate(
      { _id: userId },
      { $inc: { nonce: 1 }, $push: { openRounds: { id: roundId, at: now } } },
      { returnDocument: 'before' },
    )) as FairnessDoc;
    return {
      serverSeed: doc.serverSeed,
      serverSeedHash: doc.serverSeedHash,
      memberSeed: doc.memberSeed,
      nonce: doc.nonce,
    };
  }

  /** The round ended: it no longer holds the member's seed secret. */
  async release(userId: string, roundId: string): Promise<void> {
    await this.#current.updateOne({ _id: userId }, { $pull: { openRounds: { id: roundId } } });
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
   * Reveals the current server seed and commits to a new one, unless a round drawn from it is
   * still in play (`isOpen` says which listed rounds truly are; ended ones are forgotten, and so
   * is a claim whose round was never stored within a minute: its process died). The
   * swap is one update guarded by "no open round", and it keeps the old seed in `previous`
   * until the revealed record is written, so a crash in between loses no seed.
   */
  async rotate(
    userId: string,
    now: Date,
    isOpen: (roundId: string) => Promise<'open' | 'ended' | 'missing'>,
  ): Promise<{ revealed: RevealedSeedDoc; next: FairnessDoc }> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        const doc = await this.current(userId, now);
        if (doc.previous) await this.#reveal(userId, doc.previous);
        const open: string[] = [];
        for (const claim of doc.openRounds ?? []) {
          const state = await isOpen(claim.id);
          const abandoned = state === 'missing' && now.getTime() - claim.at.getTime() > RECOVERY_GRACE_MS;
          if (state === 'open' || (state === 'missing' && !abandoned)) open.push(claim.id);
          else await this.release(userId, claim.id);
        }
        if (open.length > 0) throw roundInPlay(open);
        const serverSeed = this.seeds.server();
        const previous = {
          serverSeed: doc.serverSeed,
          serverSeedHash: doc.serverSeedHash,
          rounds: doc.nonce,
          at: now,
        };
        const next = await this.#current.findOneAndUpdate(
          { _id: userId, serverSeedHash: doc.serverSeedHash, 'openRounds.0': { $exists: false } },
          {
            $set: {
              serverSeed,
              serverSeedHash: hashServerSeed(serverSeed),
              nonce: 0,
              createdAt: now,
              previous,
            },
          },
          { returnDocument: 'after' },
        );
        if (!next) return CONFLICT; // a round opened or another rotation won meanwhile: look again
        const revealed = await this.#reveal(userId, previous);
        const { previous: _done, ...current } = next;
        return { revealed, next: current };
      },
      `rotating the seeds of ${userId}`,
    );
  }

  async #reveal(userId: string, previous: NonNullable<FairnessDoc['previous']>): Promise<RevealedSeedDoc> {
    const revealed: RevealedSeedDoc = {
      _id: previous.serverSeedHash,
      userId,
      serverSeed: previous.serverSeed,
      rounds: previous.rounds,
      revealedAt: previous.at,
    };
    await this.#revealed.updateOne({ _id: revealed._id }, { $setOnInsert: revealed }, { upsert: true });
    await this.#current.updateOne(
      { _id: userId, 'previous.serverSeedHash': previous.serverSeedHash },
      { $unset: { previous: '' } },
    );
    return revealed;
  }

  /**
   * The server seed behind a hash of `userId`'s seeds, whether still in use (for the round's
   * own draws) or revealed. Each read names the member's document by `_id` (the current seed
   * of every member who ever played was read in full for every round otherwise).
   */
  async serverSeed(userId: string, hash: string): Promise<{ serverSeed: string; revealed: boolean } | null> {
    const revealed = await this.#revealed.findOne({ _id: hash });
    if (revealed) return { serverSeed: revealed.serverSeed, revealed: true };
    const current = await this.#current.findOne({ _id: userId, serverSeedHash: hash });
    if (current) return { serverSeed: current.serverSeed, revealed: false };
    // Rotated out a moment ago, its revealed record not yet written: it is revealed all the same.
    const rotated = await this.#current.findOne({ _id: userId, 'previous.serverSeedHash': hash });
    return rotated?.previous ? { serverSeed: rotated.previous.serverSeed, revealed: true } : null;
  }
}

function roundInPlay(roundIds: string[]): AppError {
  return new AppError('INVALID_INPUT', `rounds ${roundIds.join(', ')} are still in play`, {
    messageKey: 'games:errors.seedInUse',
    count: roundIds.length,
    roundId: roundIds[0] ?? '',
  });
}
