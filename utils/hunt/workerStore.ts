import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

/**
 * A worker identity linked to its owner (`identity_delegations`). The secret is kept as it
 * is while the worker is linked: checking an HMAC needs it (like any API key); it is shown to
 * the owner once, at linking, and removed when the worker is unlinked (migration 003 removed
 * those of workers unlinked before).
 */
export interface DelegationDoc {
  _id: string;
  ownerId: string;
  secret?: string;
  label: string;
  createdAt: Date;
  unlinkedAt: Date | null;
}

/** A worker that may sign requests. */
export type LinkedDelegation = DelegationDoc & { secret: string; unlinkedAt: null };

const NONCES = 'hunt_worker_nonces';
const DELEGATIONS = 'identity_delegations';

/** The only code that touches `identity_delegations` and the worker nonces. */
export class WorkerStore {
  readonly #delegations: Collection<DelegationDoc>;
  readonly #nonces: Collection<{ _id: string; at: Date }>;

  constructor(db: Db) {
    this.#delegations = db.collection<DelegationDoc>(DELEGATIONS, {
      writeConcern: JOURNALED,
    });
    this.#nonces = db.collection<{ _id: string; at: Date }>(NONCES);
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(NONCES).createIndex({ at: 1 }, { name: 'by_time' }),
      db.collection(DELEGATIONS).createIndex({ ownerId: 1 }, { name: 'by_owner' }),
    ]);
  }

  async link(worker: LinkedDelegation): Promise<void> {
    await this.#delegations.insertOne(worker);
  }

  /** A linked (not unlinked) worker. */
  async get(workerId: string): Promise<LinkedDelegation | null> {
    const worker = await this.#delegations.findOne({ _id: workerId, unlinkedAt: null });
    return worker?.secret === undefined ? null : (worker as LinkedDelegation);
  }

  /** A worker as it was recorded, also after it was unlinked (its owner stays its owner). */
  record(workerId: string): Promise<DelegationDoc | null> {
    return this.#delegations.findOne({ _id: workerId });
  }

  everOf(ownerId: string): Promise<DelegationDoc[]> {
    return this.#delegations.find({ ownerId }).sort({ createdAt: 1 }).toArray();
  }

  /** Workers' labels by id, unlinked ones too (their earnings still name them). */
  async labels(ids: readonly string[]): Promise<Map<string, string>> {
    const found = await this.#delegations
      .find({ _id: { $in: [...ids] } }, { projection: { label: 1 } })
      .toArray();
    return new Map(found.map((w) => [w._id, w.label]));
  }

  /** Linked workers whose id starts with `text` or whose label contains it (any case). */
  search(text: string, limit: number): Promise<DelegationDoc[]> {
    const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return this.#delegations
      .find({
        unlinkedAt: null,
        $or: [{ _id: { $regex: `^${escaped}` } }, { label: { $regex: escaped, $options: 'i' } }],
      })
      .limit(limit)
      .toArray();
  }

  list(ownerId: string): Promise<DelegationDoc[]> {
    return this.#delegations.find({ ownerId, unlinkedAt: null }).sort({ createdAt: 1 }).toArray();
  }

  async unlink(ownerId: string, workerId: string, now: Date): Promise<boolean> {
    const result = await this.#delegations.updateOne(
      { _id: workerId, ownerId, unlinkedAt: null },
      { $set: { unlinkedAt: now }, $unset: { secret: '' } },
    );
    return result.modifiedCount === 1;
  }

  /** Removes nonces older than `keepMs` (they only guard against a replay within it). */
  async pruneNonces(now: Date, keepMs: number): Promise<number> {
    return (await this.#nonces.deleteMany({ at: { $lt: new Date(now.getTime() - keepMs) } })).deletedCount;
  }

  /** Remembers a nonce; false when the worker used it before (a replay). Old ones are pruned. */
  async useNonce(workerId: string, nonce: string, now: Date, keepMs: number): Promise<boolean> {
    await this.#nonces.deleteMany({ at: { $lt: new Date(now.getTime() - keepMs) } });
    try {
      await this.#nonces.insertOne({ _id: `${workerId}:${nonce}`, at: now });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }
}
