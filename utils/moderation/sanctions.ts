import type { Clock } from '../../src/clock.js';
import type { SanctionScope } from '../../src/interactions/types.js';
import { needsAdmin, sanctioned } from './errors.js';
import { type SanctionDoc, type SanctionStore, sanctionId } from './sanctionStore.js';
import { coveringScopes, endsLater, isOver, MODERATOR_MAX_MS, SCOPES } from './scopes.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    moderation: Sanctions;
  }
}

/** A moderator's ban as asked: `lengthMs` null is permanent. */
export interface BanRequest {
  member: string;
  scope: SanctionScope;
  lengthMs: number | null;
  reason: string;
  by: string;
  /** Whether the moderator is an admin: only an admin bans for longer than a week, or for good. */
  byAdmin: boolean;
}

/**
 * What a ban did: `banned` (new), `extended` (it replaced one ending earlier) or `kept` (one
 * ending as late or later was there: it stands, and `sanction` is it).
 */
export interface BanOutcome {
  outcome: 'banned' | 'extended' | 'kept';
  sanction: SanctionDoc;
}

/**
 * Moderators' bans (docs/operating.md, "Moderation"): a member banned from painting, from games,
 * or from the whole economy. Every place a member acts asks `refuse` at that moment: the
 * interaction runtime for commands and buttons, the place service for every placement, the
 * workers' API for every tip.
 */
export class Sanctions {
  constructor(private readonly deps: { store: SanctionStore; clock: Clock }) {}

  /**
   * Bans a member from a scope. One record per member and scope: of two bans, the one that ends
   * later stands (a permanent one latest), so a shorter ban never cuts a longer one short; to
   * shorten a ban, lift it and ban again.
   */
  async ban(request: BanRequest): Promise<BanOutcome> {
    if (!request.byAdmin && (request.lengthMs === null || request.lengthMs > MODERATOR_MAX_MS))
      throw needsAdmin();
    const now = this.deps.clock.now();
    const doc: SanctionDoc = {
      _id: sanctionId(request.member, request.scope),
      member: request.member,
      scope: request.scope,
      until: request.lengthMs === null ? null : new Date(now.getTime() + request.lengthMs),
      reason: request.reason,
      by: request.by,
      at: now,
    };
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await this.deps.store.create(doc)) return { outcome: 'banned', sanction: doc };
      if (await this.deps.store.replaceIfEarlier(doc, now)) return { outcome: 'extended', sanction: doc };
      const standing = await this.deps.store.get(doc._id);
      // Lifted between the two writes: try again.
      if (standing && !isOver(standing.until, now)) return { outcome: 'kept', sanction: standing };
    }
    throw new Error(`the ban ${doc._id} kept changing while it was recorded`);
  }

  /** Lifts a member's ban in a scope; returns it, or null when there was none in force. */
  async lift(member: string, scope: SanctionScope): Promise<SanctionDoc | null> {
    const removed = await this.deps.store.remove(sanctionId(member, scope));
    return removed && !isOver(removed.until, this.deps.clock.now()) ? removed : null;
  }

  /** The bans in force, a member's or everyone's, newest first. */
  async list(member?: string): Promise<SanctionDoc[]> {
    const now = this.deps.clock.now();
    return (await this.deps.store.list(member)).filter((s) => !isOver(s.until, now));
  }

  /** The ban in force that refuses an action of `scope`, the one ending latest; null when none. */
  async banOf(member: string, scope: SanctionScope): Promise<SanctionDoc | null> {
    const now = this.deps.clock.now();
    const ids = coveringScopes(scope).map((s) => sanctionId(member, s));
    const inForce = (await this.deps.store.byIds(ids)).filter((s) => !isOver(s.until, now));
    return inForce.reduce<SanctionDoc | null>(
      (latest, s) => (latest === null || endsLater(s.until, latest.until) ? s : latest),
      null,
    );
  }

  /** Refuses `member` with SANCTIONED when a ban in force covers an action of `scope`. */
  async refuse(member: string, scope: SanctionScope): Promise<void> {
    const ban = await this.banOf(member, scope);
    if (ban) throw sanctioned(ban);
  }

  /** Removes the bans that are over (the hourly retention). */
  async prune(): Promise<number> {
    return this.deps.store.removeOver(this.deps.clock.now());
  }

  /** Every scope, for menus and lists. */
  scopes(): readonly SanctionScope[] {
    return SCOPES;
  }
}
