import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import { CONFLICT, CONFLICT_RETRY_LIMIT, retryOnConflict } from '../../src/db/retryOnConflict.js';

/** Who a sign-in link or a session speaks for: the member, and their roles when it was made. */
export interface WebIdentity {
  userId: string;
  name: string;
  /** The member's roles at `/place web` (admin rights on the web follow the same rules as commands). */
  roleIds: string[];
  /** The member's Discord language when the link was made (`de`, `en-US`), if known. */
  locale?: string;
}

/** A one-time sign-in link (`/place web`): the SHA-256 of its token, never the token. */
export interface LinkDoc extends WebIdentity {
  _id: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  /** The member's sign-out generation when it was made (absent: 0). */
  generation?: number;
}

/** A signed-in browser: the SHA-256 of its cookie, never the cookie. */
export interface SessionDoc extends WebIdentity {
  _id: string;
  createdAt: Date;
  expiresAt: Date;
  /** The generation of the link (or sign-in) that opened it (absent: 0). */
  generation?: number;
}

/**
 * How often a member signed out everywhere. A link or session is good only while its
 * generation is the member's current one, so `logout-all` ends every link and session made
 * before it by one write, whatever is in flight at that moment.
 */
interface SignOutDoc {
  _id: string;
  generation: number;
}

interface RateDoc {
  _id: string;
  count: number;
  expiresAt: Date;
}

/** An Idempotency-Key of a moderator's write, and the request it was first sent with. */
interface KeyDoc {
  /** `<member id>:<key>`: a key is its member's own. */
  _id: string;
  member: string;
  request: string;
  expiresAt: Date;
}

const LINKS = 'web_links';
const SESSIONS = 'web_sessions';
const RATES = 'web_rate_limits';
/** The rate-limit windows, which hold network addresses for minutes (backups leave them out). */
export const RATE_LIMITS_COLLECTION = RATES;
const SIGN_OUTS = 'web_sign_outs';
const KEYS = 'web_admin_keys';

/** The only code that touches the web's sign-in links, sessions and rate-limit counters. */
export class WebStore {
  readonly #links: Collection<LinkDoc>;
  readonly #sessions: Collection<SessionDoc>;
  readonly #rates: Collection<RateDoc>;
  readonly #signOuts: Collection<SignOutDoc>;
  readonly #keys: Collection<KeyDoc>;

  constructor(db: Db) {
    this.#links = db.collection<LinkDoc>(LINKS);
    this.#sessions = db.collection<SessionDoc>(SESSIONS);
    this.#rates = db.collection<RateDoc>(RATES);
    this.#signOuts = db.collection<SignOutDoc>(SIGN_OUTS);
    this.#keys = db.collection<KeyDoc>(KEYS);
  }

  /** Expired documents leave on their own on MongoDB (TTL); every read also checks the expiry. */
  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(LINKS).createIndex({ expiresAt: 1 }, { name: 'ttl', expireAfterSeconds: 0 }),
      db.collection(SESSIONS).createIndex({ expiresAt: 1 }, { name: 'ttl', expireAfterSeconds: 0 }),
      db.collection(SESSIONS).createIndex({ userId: 1 }, { name: 'by_user' }),
      db.collection(LINKS).createIndex({ userId: 1 }, { name: 'by_user' }),
      db.collection(RATES).createIndex({ expiresAt: 1 }, { name: 'ttl', expireAfterSeconds: 0 }),
      db.collection(KEYS).createIndex({ expiresAt: 1 }, { name: 'ttl', expireAfterSeconds: 0 }),
    ]);
  }

  async addLink(link: LinkDoc): Promise<void> {
    await this.#links.insertOne(link);
  }

  /** Uses a link once: only the caller whose update found it unused and unexpired gets it. */
  async useLink(id: string, now: Date): Promise<LinkDoc | null> {
    return this.#links.findOneAndUpdate(
      { _id: id, usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now } },
      { returnDocument: 'before' },
    );
  }

  /** A link as it is, used or not (the sign-in page tells a used link from a fresh one). */
  link(id: string): Promise<LinkDoc | null> {
    return this.#links.findOne({ _id: id });
  }

  async addSession(session: SessionDoc): Promise<void> {
    await this.#sessions.insertOne(session);
  }

  session(id: string, now: Date): Promise<SessionDoc | null> {
    return this.#sessions.findOne({ _id: id, expiresAt: { $gt: now } });
  }

  async endSession(id: string): Promise<void> {
    await this.#sessions.deleteOne({ _id: id });
  }

  /** The member's sign-out generation (0 until the first sign-out everywhere). */
  async generation(userId: string): Promise<number> {
    return (await this.#signOuts.findOne({ _id: userId }))?.generation ?? 0;
  }

  /**
   * Signs a member out everywhere: first the generation moves on (from then on no older link
   * or session is good, whatever happens next), then the old sessions and unused links are
   * removed. Returns how many sessions ended.
   */
  async signOutEverywhere(userId: string, now: Date): Promise<number> {
    await retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        try {
          await this.#signOuts.updateOne({ _id: userId }, { $inc: { generation: 1 } }, { upsert: true });
          return true;
        } catch (error) {
          // Two first sign-outs raced to create the record: the loser increments the winner's.
          if (!isDuplicateKey(error)) throw error;
          return CONFLICT;
        }
      },
      `signing ${userId} out everywhere`,
    );
    await this.#links.updateMany({ userId, usedAt: null }, { $set: { usedAt: now } });
    return (await this.#sessions.deleteMany({ userId })).deletedCount;
  }

  /** Counts one hit in a fixed window (one counter per key and window, shared by every process). */
  /**
   * Removes what has expired: sign-in links, sessions, rate-limit windows (which hold
   * network addresses) and moderators' Idempotency-Keys. MongoDB's TTL indexes remove them too,
   * when its TTL monitor runs; the privacy feature's timer calls this, so the removal promised in docs/operating.md ("Privacy")
   * does not wait on a server's background task.
   */
  async pruneExpired(now: Date): Promise<{ links: number; sessions: number; rates: number }> {
    const expired = { expiresAt: { $lt: now } };
    const [links, sessions, rates] = await Promise.all([
      this.#links.deleteMany(expired),
      this.#sessions.deleteMany(expired),
      this.#rates.deleteMany(expired),
      this.#keys.deleteMany(expired),
    ]);
    return { links: links.deletedCount, sessions: sessions.deletedCount, rates: rates.deletedCount };
  }

  /**
   * Forgets the sign-out generation of members with no link and no session left: it only has
   * to outlive what was made before it, and a member starting afresh starts at 0. A link made
   * in the same instant is refused at its use, and the member asks for another.
   */
  async pruneSignOuts(): Promise<number> {
    let removed = 0;
    for await (const signOut of this.#signOuts.find({}, { projection: { _id: 1 } })) {
      const userId = signOut._id;
      const live =
        (await this.#links.countDocuments({ userId }, { limit: 1 })) +
        (await this.#sessions.countDocuments({ userId }, { limit: 1 }));
      if (live === 0) removed += (await this.#signOuts.deleteOne({ _id: userId })).deletedCount;
    }
    return removed;
  }

  hit(key: string, windowStart: number, windowMs: number): Promise<number> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        try {
          const doc = await this.#rates.findOneAndUpdate(
            { _id: `${key}:${windowStart}` },
            { $inc: { count: 1 }, $setOnInsert: { expiresAt: new Date(windowStart + 2 * windowMs) } },
            { upsert: true, returnDocument: 'before' },
          );
          // The pre-image (reliable under concurrency on every backend): this hit is one more.
          return (doc?.count ?? 0) + 1;
        } catch (error) {
          // Two first hits raced to create the counter: the loser counts on the winner's.
          if (!isDuplicateKey(error)) throw error;
          return CONFLICT;
        }
      },
      `counting a hit on ${key}`,
    );
  }

  /** Records the request a member's key was first sent with; returns that request (this one, or the first). */
  async claimKey(doc: KeyDoc): Promise<string> {
    try {
      await this.#keys.insertOne(doc);
      return doc.request;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.#keys.findOne({ _id: doc._id }))?.request ?? doc.request;
    }
  }
}
