import type { Collection, Db } from 'mongodb';

/**
 * A Give waiting for its member's confirmation. `open` → `accepted` (Give pressed: the
 * transfer runs with the prompt's operation id, and may be retried by pressing again) →
 * `given`; or `open` → `cancelled`. Each step is one guarded update, so Give and Cancel
 * racing on the same prompt cannot both win. An open prompt past `expiresAt` is expired.
 */
export interface GivePromptDoc {
  _id: string;
  from: string;
  to: string;
  amount: number;
  status: 'open' | 'accepted' | 'given' | 'cancelled';
  createdAt: Date;
  expiresAt: Date;
}

export const GIVE_PROMPTS = 'cookies_give_prompts';

/** The only code that touches `cookies_give_prompts`. */
export class GivePromptStore {
  readonly #prompts: Collection<GivePromptDoc>;

  constructor(db: Db) {
    this.#prompts = db.collection<GivePromptDoc>(GIVE_PROMPTS, { writeConcern: { w: 1, journal: true } });
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await db.collection(GIVE_PROMPTS).createIndex({ expiresAt: 1 }, { name: 'by_expiry' });
  }

  async create(prompt: GivePromptDoc): Promise<void> {
    await this.#prompts.insertOne(prompt);
  }

  get(id: string): Promise<GivePromptDoc | null> {
    return this.#prompts.findOne({ _id: id });
  }

  /** Give pressed: an open, unexpired prompt (or one already accepted, to retry) becomes accepted. */
  accept(id: string, now: Date): Promise<GivePromptDoc | null> {
    return this.#prompts.findOneAndUpdate(
      { _id: id, $or: [{ status: 'open', expiresAt: { $gt: now } }, { status: 'accepted' }] },
      { $set: { status: 'accepted' } },
      { returnDocument: 'after' },
    );
  }

  async markGiven(id: string): Promise<void> {
    await this.#prompts.updateOne({ _id: id, status: 'accepted' }, { $set: { status: 'given' } });
  }

  /** Cancel pressed: only an open, unexpired prompt can be cancelled. */
  async cancel(id: string, now: Date): Promise<boolean> {
    const result = await this.#prompts.updateOne(
      { _id: id, status: 'open', expiresAt: { $gt: now } },
      { $set: { status: 'cancelled' } },
    );
    return result.modifiedCount === 1;
  }

  async delete(id: string): Promise<void> {
    await this.#prompts.deleteOne({ _id: id });
  }
}
