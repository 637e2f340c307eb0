import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../src/clock.js';
import type { WebIdentity, WebStore } from './webStore.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    web: WebService;
  }
}

/** A sign-in link works once, for 10 minutes (`/place web`). */
export const LINK_TTL_MS = 10 * 60_000;
/** How long a moderator's Idempotency-Key stays tied to its first request. */
export const KEY_TTL_MS = 30 * 24 * 3_600_000;
/** A browser stays signed in for 30 days, or until `/place web action:logout-all`. */
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export interface RateLimit {
  /** Hits allowed per window, per key. */
  limit: number;
  windowMs: number;
}

/**
 * Signing in to the web page without passwords: `/place web` makes a one-time link; opening
 * it (and confirming) makes a session. Links and sessions are stored as hashes in MongoDB, so
 * any web process can check them and a database leak reveals no usable token. Rate limits are
 * counters in MongoDB too: every process behind a load balancer counts against the same limit.
 */
/** A session just opened: its cookie's token (shown once, stored only as a hash). */
export interface OpenedSession {
  token: string;
  identity: WebIdentity;
  expiresAt: Date;
}

/** The identity a link or session speaks for (its language only when it was known). */
function identityOf(doc: WebIdentity): WebIdentity {
  const identity: WebIdentity = { userId: doc.userId, name: doc.name, roleIds: doc.roleIds };
  if (doc.locale) identity.locale = doc.locale;
  return identity;
}

export class WebService {
  /** Every window here (links, sessions, rate limits) runs on `wallClock`: real time. */
  constructor(private readonly deps: { store: WebStore; wallClock: Clock }) {}

  /** A new sign-in link's token, valid once for LINK_TTL_MS, until the member signs out everywhere. */
  async createLink(identity: WebIdentity): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken();
    const now = this.deps.wallClock.now();
    const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
    const generation = await this.deps.store.generation(identity.userId);
    await this.deps.store.addLink({
      _id: hash(token),
      ...identity,
      createdAt: now,
      expiresAt,
      usedAt: null,
      generation,
    });
    return { token, expiresAt };
  }

  /** Uses a link (once) and opens a session; null when the link is unknown, used, expired or revoked. */
  async signIn(linkToken: string): Promise<OpenedSession | null> {
    const now = this.deps.wallClock.now();
    const link = await this.deps.store.useLink(hash(linkToken), now);
    if (!link) return null;
    const generation = link.generation ?? 0;
    if (generation !== (await this.deps.store.generation(link.userId))) return null;
    return this.#open(identityOf(link), generation);
  }

  /**
   * What opening a link would find, without using it: whether it still signs in, and the
   * language of the member it was made for (null when no such link is stored).
   */
  async peekLink(linkToken: string): Promise<{ usable: boolean; locale: string | undefined } | null> {
    const link = await this.deps.store.link(hash(linkToken));
    if (!link) return null;
    const usable =
      link.usedAt === null &&
      link.expiresAt > this.deps.wallClock.now() &&
      (link.generation ?? 0) === (await this.deps.store.generation(link.userId));
    return { usable, locale: link.locale };
  }

  /** A session for a member known by other means (Discord OAuth2). */
  async openSession(identity: WebIdentity): Promise<OpenedSession> {
    return this.#open(identity, await this.deps.store.generation(identity.userId));
  }

  async #open(identity: WebIdentity, generation: number): Promise<OpenedSession> {
    const token = newToken();
    const now = this.deps.wallClock.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await this.deps.store.addSession({
      _id: hash(token),
      ...identity,
      createdAt: now,
      expiresAt,
      generation,
    });
    return { token, identity, expiresAt };
  }

  /** The member a session cookie speaks for, or null (unknown, expired, or signed out everywhere since). */
  async session(token: string): Promise<WebIdentity | null> {
    const session = await this.deps.store.session(hash(token), this.deps.wallClock.now());
    if (!session) return null;
    if ((session.generation ?? 0) !== (await this.deps.store.generation(session.userId))) return null;
    return identityOf(session);
  }

  signOut(token: string): Promise<void> {
    return this.deps.store.endSession(hash(token));
  }

  /**
   * Ends every session of a member and every sign-in link not used yet, including one being
   * used at this moment; returns how many sessions ended.
   */
  /** Removes expired links, sessions and rate-limit windows (the privacy feature's timer). */
  pruneExpired(): Promise<{ links: number; sessions: number; rates: number }> {
    return this.deps.store.pruneExpired(this.deps.wallClock.now());
  }

  /** Forgets the sign-out generations nothing needs any more (the retention timer). */
  pruneSignOuts(): Promise<number> {
    return this.deps.store.pruneSignOuts();
  }

  signOutEverywhere(userId: string): Promise<number> {
    return this.deps.store.signOutEverywhere(userId, this.deps.wallClock.now());
  }

  /** Counts a hit of `key`; refused hits report when the window ends. */
  async allow(key: string, rule: RateLimit): Promise<{ allowed: boolean; retryAfterMs: number }> {
    const now = this.deps.wallClock.now().getTime();
    const windowStart = now - (now % rule.windowMs);
    const count = await this.deps.store.hit(key, windowStart, rule.windowMs);
    return { allowed: count <= rule.limit, retryAfterMs: windowStart + rule.windowMs - now };
  }

  /**
   * Whether `request` is what `member` first sent with `key` (then it goes ahead; a retry or a
   * double click carries it out once further down), or the key was used for another request.
   */
  async sameRequest(member: string, key: string, request: string): Promise<boolean> {
    const expiresAt = new Date(this.deps.wallClock.now().getTime() + KEY_TTL_MS);
    const first = await this.deps.store.claimKey({ _id: `${member}:${key}`, member, request, expiresAt });
    return first === request;
  }
}
