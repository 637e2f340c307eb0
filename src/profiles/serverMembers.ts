import type { AnyBulkWriteOperation } from 'mongodb';
import type { Clock } from '../clock.js';
import type { Collections, ServerMemberDoc } from '../db/collections.js';

/** What an interaction tells of who is in its server (the runtime's Invocation has these fields). */
export interface SeenInteraction {
  guildId: string | null;
  user: { id: string; name: string };
  joinedAt?: Date | null;
  /** Members its options named, resolved by Discord in the server, with their join time. */
  usersJoinedAt?: Record<string, Date | null>;
  users: Record<string, string>;
  bots?: string[];
  /** The roles of the member acting, as Discord sent them with the interaction. */
  roleIds?: readonly string[];
}

const REFRESH_MS = 10 * 60_000;
const MAX_CACHED = 10_000;

/**
 * A member as an interaction shows them in a server: their name there and, when Discord sent
 * them, their join time and their roles.
 */
export interface SeenMember {
  id: string;
  name: string;
  joinedAt: Date | null;
  roleIds?: readonly string[];
}

interface Recent {
  name: string;
  joinedAt: number | null;
  /** The roles last written, sorted and joined; null when none were ever sent. */
  roles: string | null;
  at: number;
}

/**
 * Who the bot has seen in which server, and since when (`server_members`): the local half of
 * the one Cookie economy, which leaderboards read per server. The member acting is seen; a
 * member named in an option is known to be there (Discord resolved them in that server) but
 * not seen acting, so their `lastSeenAt` stays. Like the profiles, a row is written at most once
 * every ten minutes per process, or at once when the name, Discord's join time or the roles
 * changed: the roles are what role income pays on, so a role taken away counts from the next
 * interaction.
 */
export class ServerMembers {
  readonly #recent = new Map<string, Recent>();

  constructor(private readonly deps: { cols: Collections; clock: Clock }) {}

  /** Records who an interaction shows in its server: the member acting, and the members its options named. */
  seenIn(invocation: SeenInteraction): Promise<void> {
    const actor = {
      ...invocation.user,
      joinedAt: invocation.joinedAt ?? null,
      ...(invocation.roleIds ? { roleIds: invocation.roleIds } : {}),
    };
    return this.seen(invocation.guildId, actor, named(invocation));
  }

  /** Records the member acting in `guildId` and the members its options named (none outside a server). */
  async seen(guildId: string | null, actor: SeenMember, named: readonly SeenMember[] = []): Promise<void> {
    if (!guildId) return;
    const now = this.deps.clock.now();
    const writes: AnyBulkWriteOperation<ServerMemberDoc>[] = [];
    const fresh: [string, Recent][] = [];
    for (const [member, acting] of [
      [actor, true] as const,
      ...named.filter((m) => m.id !== actor.id).map((m) => [m, false] as const),
    ]) {
      const key = `${guildId}:${member.id}`;
      const joinedAt = member.joinedAt?.getTime() ?? null;
      const known = this.#recent.get(key);
      const roles = member.roleIds ? [...member.roleIds].sort().join(',') : (known?.roles ?? null);
      if (
        known &&
        known.name === member.name &&
        known.joinedAt === joinedAt &&
        known.roles === roles &&
        (!acting || now.getTime() - known.at < REFRESH_MS)
      )
        continue;
      writes.push({
        updateOne: { filter: { _id: key }, update: row(guildId, member, acting, now), upsert: true },
      });
      fresh.push([key, { name: member.name, joinedAt, roles, at: now.getTime() }]);
    }
    if (writes.length === 0) return;
    await this.deps.cols.serverMembers.bulkWrite(writes, { ordered: false });
    if (this.#recent.size + fresh.length > MAX_CACHED) this.#recent.clear();
    for (const [key, value] of fresh) this.#recent.set(key, value);
  }

  /** When the member joined the server: Discord's time when it was ever sent, else when first seen there (null: never seen). */
  async joinedAt(guildId: string, userId: string): Promise<Date | null> {
    const doc = await this.deps.cols.serverMembers.findOne(
      { _id: `${guildId}:${userId}` },
      { projection: { joinedAt: 1 } },
    );
    return doc?.joinedAt ?? null;
  }

  /** Every member the bot knows in the server, by id, with their name there. */
  async members(guildId: string): Promise<Map<string, string>> {
    const docs = await this.deps.cols.serverMembers
      .find({ guildId }, { projection: { userId: 1, name: 1 } })
      .toArray();
    return new Map(docs.map((d) => [d.userId, d.name]));
  }

  /**
   * Up to `limit` members recorded with `roleId` in the server, in id order after `after`: a
   * page of a role's holders as their last interaction showed them.
   */
  async withRole(guildId: string, roleId: string, after: string, limit: number): Promise<string[]> {
    const docs = await this.deps.cols.serverMembers
      .find({ guildId, roleIds: roleId, userId: { $gt: after } }, { projection: { userId: 1 } })
      .sort({ userId: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d.userId);
  }

  /** Of `ids`, those the bot knows in the server. */
  async inServer(guildId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const docs = await this.deps.cols.serverMembers
      .find({ guildId, userId: { $in: [...new Set(ids)] } }, { projection: { userId: 1 } })
      .toArray();
    return new Set(docs.map((d) => d.userId));
  }

  /** The servers the bot has seen the member in (a moderator's portal offers their shops), in id order. */
  async serversOf(userId: string): Promise<string[]> {
    const docs = await this.deps.cols.serverMembers
      .find({ userId }, { projection: { guildId: 1 } })
      .toArray();
    return [...new Set(docs.map((d) => d.guildId))].sort();
  }

  /** The name each of `ids` was last seen with in any server (for members without a profile). */
  async names(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const docs = await this.deps.cols.serverMembers
      .find({ userId: { $in: [...new Set(ids)] } }, { projection: { userId: 1, name: 1 } })
      .sort({ lastSeenAt: 1 })
      .toArray();
    return new Map(docs.map((d) => [d.userId, d.name]));
  }

  /** Forgets the members' rows in all servers and this process's memory of them. */
  async remove(userIds: readonly string[]): Promise<number> {
    if (userIds.length === 0) return 0;
    const gone = new Set(userIds);
    for (const key of this.#recent.keys())
      if (gone.has(key.slice(key.indexOf(':') + 1))) this.#recent.delete(key);
    return (await this.deps.cols.serverMembers.deleteMany({ userId: { $in: [...gone] } })).deletedCount;
  }

  /** Removes the rows of members not seen in that server since `before` (inactive-member cleanup). */
  async removeNotSeenSince(before: Date): Promise<number> {
    const gone = (await this.deps.cols.serverMembers.deleteMany({ lastSeenAt: { $lt: before } }))
      .deletedCount;
    if (gone > 0) this.#recent.clear();
    return gone;
  }
}

/**
 * The members an interaction's options named in its server: those Discord resolved as members
 * there (with their join time), bots left out; a user named from outside the server is no member.
 */
function named(invocation: SeenInteraction): SeenMember[] {
  const bots = new Set(invocation.bots ?? []);
  return Object.entries(invocation.usersJoinedAt ?? {})
    .filter(([id]) => !bots.has(id))
    .map(([id, joinedAt]) => ({ id, name: invocation.users[id] ?? id, joinedAt }));
}

/**
 * The upsert of one row. Discord's join time always wins (a member who left and came back has a
 * new one); without it, the first time seen stands in, set once, so a later interaction never
 * moves a known join time.
 */
function row(guildId: string, member: SeenMember, acting: boolean, now: Date) {
  const fromDiscord = member.joinedAt ? { joinedAt: member.joinedAt, joinedFrom: 'discord' as const } : {};
  const firstSeen = member.joinedAt ? {} : { joinedAt: now, joinedFrom: 'firstSeen' as const };
  return {
    $set: {
      guildId,
      userId: member.id,
      name: member.name,
      ...(acting ? { lastSeenAt: now } : {}),
      ...(member.roleIds ? { roleIds: [...member.roleIds].sort() } : {}),
      ...fromDiscord,
    },
    $setOnInsert: { firstSeenAt: now, ...(acting ? {} : { lastSeenAt: now }), ...firstSeen },
  };
}
