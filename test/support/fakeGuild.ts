import { PermissionFlagsBits, PermissionsBitField } from 'discord.js';

/**
 * The one server of the fake Discord: its roles, channels (with permission overwrites), the
 * members and users it knows, and the bot's permissions computed as Discord computes them, so
 * the fake refuses what Discord refuses and discord.js, from the same data, computes the same.
 */

export const GUILD_ID = '900000000000000001';
export const CHANNEL_ID = '900000000000000002';
export const APP_ID = '900000000000000003';
export const BOT_USER_ID = APP_ID;
export const BOT_ROLE_ID = '900000000000000004';
export const OWNER_ID = '900000000000000009';

export interface FakeUser {
  id: string;
  username: string;
  roles?: string[];
  /** The member's client language, sent as the interaction's `locale` (default en-US). */
  locale?: string;
  /** An app rather than a person. */
  bot?: boolean;
  /** When they joined the server, as Discord's `joined_at` (ISO 8601; default the first of January 2025). */
  joinedAt?: string;
}

export interface FakeRole {
  id: string;
  name: string;
  /** Discord's permission bits (default: none beyond @everyone's). */
  permissions?: bigint;
  /**
   * Its place in the server's list, higher above (@everyone 0, the bot's role BOT_ROLE_POSITION);
   * default: below the bot's, in the order added. At the bot's or above, the bot may not give it.
   */
  position?: number;
  /** An integration's or the booster role: nobody gives it by hand (the bot's own role is). */
  managed?: boolean;
}

export type PermissionName = keyof typeof PermissionFlagsBits;

interface Overwrite {
  id: string;
  /** 0 a role, 1 a member. */
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

interface FakeChannel {
  id: string;
  name: string;
  overwrites: Overwrite[];
}

/** What every member may do in a channel unless an overwrite says otherwise. */
const EVERYONE_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.UseExternalEmojis |
  PermissionFlagsBits.UseApplicationCommands;

/** The bot's role: everything but Administrator, which would make a channel's denial moot. */
export const BOT_PERMISSIONS = PermissionsBitField.All & ~PermissionFlagsBits.Administrator;
/** High enough that the roles a test adds without a position sit below it. */
export const BOT_ROLE_POSITION = 100;

export const BOT_USER: FakeUser = { id: BOT_USER_ID, username: 'CookieBot', bot: true, roles: [BOT_ROLE_ID] };

export function apiUser(user: FakeUser) {
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.bot ? null : user.username,
    avatar: null,
    ...(user.bot ? { bot: true } : {}),
  };
}

export class FakeGuild {
  readonly #roles = new Map<string, FakeRole>([
    [GUILD_ID, { id: GUILD_ID, name: '@everyone', permissions: EVERYONE_PERMISSIONS }],
    [
      BOT_ROLE_ID,
      {
        id: BOT_ROLE_ID,
        name: 'CookieBot',
        permissions: BOT_PERMISSIONS,
        position: BOT_ROLE_POSITION,
        managed: true,
      },
    ],
  ]);
  readonly #channels = new Map<string, FakeChannel>([
    [CHANNEL_ID, { id: CHANNEL_ID, name: 'general', overwrites: [] }],
  ]);
  readonly #users = new Map<string, FakeUser>([[BOT_USER_ID, BOT_USER]]);
  readonly #members = new Set<string>([BOT_USER_ID]);

  /** A member of the server (and so a user Discord knows). */
  addMember(user: FakeUser): void {
    this.#users.set(user.id, { ...this.#users.get(user.id), ...user });
    this.#members.add(user.id);
  }

  /** A user Discord knows who is not in the server. */
  addUser(user: FakeUser): void {
    this.#users.set(user.id, { ...this.#users.get(user.id), ...user });
  }

  member(id: string): FakeUser | undefined {
    return this.#members.has(id) ? this.#users.get(id) : undefined;
  }

  /** The member leaves the server: Discord forgets their roles, and still knows the user. */
  removeMember(id: string): void {
    this.#members.delete(id);
    const user = this.#users.get(id);
    if (user) this.#users.set(id, { ...user, roles: [] });
  }

  /** Gives (`held`) or takes a role from a member, as Discord does once it took the request. */
  setMemberRole(userId: string, roleId: string, held: boolean): void {
    const user = this.#users.get(userId);
    if (!user) return;
    const others = (user.roles ?? []).filter((id) => id !== roleId);
    this.#users.set(userId, { ...user, roles: held ? [...others, roleId] : others });
  }

  user(id: string): FakeUser | undefined {
    return this.#users.get(id);
  }

  addRole(role: FakeRole): void {
    this.#roles.set(role.id, role);
  }

  /** Deletes the role; who held it no longer does. */
  removeRole(id: string): void {
    this.#roles.delete(id);
    for (const user of this.#users.values())
      if (user.roles?.includes(id))
        this.#users.set(user.id, { ...user, roles: user.roles.filter((r) => r !== id) });
  }

  role(id: string): FakeRole | undefined {
    return this.#roles.get(id);
  }

  /** Changes the bot role's permissions (it keeps everything else), as a server admin would. */
  setBotRolePermissions(change: (permissions: bigint) => bigint): void {
    const role = this.#roles.get(BOT_ROLE_ID) as FakeRole;
    this.#roles.set(BOT_ROLE_ID, { ...role, permissions: change(role.permissions ?? 0n) });
  }

  /** The role's position as Discord sends it: its own, else its place among those added without one. */
  position(role: FakeRole): number {
    if (role.position !== undefined) return role.position;
    const unplaced = [...this.#roles.values()].filter((r) => r.position === undefined).map((r) => r.id);
    return unplaced.indexOf(role.id);
  }

  /** Why Discord refuses the bot giving or taking `roleId` (all 403 50013): null when it may. */
  botMayNotManage(roleId: string): 'permission' | 'managed' | 'hierarchy' | null {
    const role = this.#roles.get(roleId);
    if (!role) return null;
    if ((this.guildPermissions(BOT_USER) & PermissionFlagsBits.ManageRoles) === 0n) return 'permission';
    if (role.managed) return 'managed';
    // Discord's order of roles: by position, and between equal positions the older (smaller) id above.
    const rank = (r: FakeRole) => [this.position(r), -BigInt(r.id)] as const;
    const [position, id] = rank(role);
    const above = (BOT_USER.roles ?? [])
      .map((id) => this.#roles.get(id))
      .filter((r): r is FakeRole => r !== undefined)
      .some((r) => {
        const [p, i] = rank(r);
        return p > position || (p === position && i > id);
      });
    return above ? null : 'hierarchy';
  }

  hasChannel(id: string): boolean {
    return this.#channels.has(id);
  }

  /** The channel `id`; one the bot was told about (a setting, a post) exists when first named. */
  channel(id: string): FakeChannel {
    let channel = this.#channels.get(id);
    if (!channel) {
      channel = { id, name: `channel-${id.slice(-4)}`, overwrites: [] };
      this.#channels.set(id, channel);
    }
    return channel;
  }

  addChannel(id: string, name: string): FakeChannel {
    const channel = this.channel(id);
    channel.name = name;
    return channel;
  }

  /** Denies the bot `permissions` in channel `id` by a member overwrite, as a server admin would. */
  denyBot(id: string, permissions: PermissionName[]): FakeChannel {
    const channel = this.channel(id);
    const overwrite = this.#botOverwrite(channel);
    for (const name of permissions) overwrite.deny |= PermissionFlagsBits[name];
    overwrite.allow &= ~overwrite.deny;
    return channel;
  }

  /** Takes back every denial of the bot in channel `id`. */
  restoreBot(id: string): FakeChannel {
    const channel = this.channel(id);
    channel.overwrites = channel.overwrites.filter((o) => !(o.type === 1 && o.id === BOT_USER_ID));
    return channel;
  }

  #botOverwrite(channel: FakeChannel): Overwrite {
    let overwrite = channel.overwrites.find((o) => o.type === 1 && o.id === BOT_USER_ID);
    if (!overwrite) {
      overwrite = { id: BOT_USER_ID, type: 1, allow: 0n, deny: 0n };
      channel.overwrites.push(overwrite);
    }
    return overwrite;
  }

  /** The member's permissions in the server, before any channel's overwrites. */
  guildPermissions(user: FakeUser): bigint {
    let base = 0n;
    for (const id of [GUILD_ID, ...(user.roles ?? [])]) base |= this.#roles.get(id)?.permissions ?? 0n;
    if (user.id === OWNER_ID || (base & PermissionFlagsBits.Administrator) !== 0n)
      return PermissionsBitField.All;
    return base;
  }

  /** The member's permissions in the channel, by Discord's documented algorithm. */
  permissions(user: FakeUser, channelId: string): bigint {
    const roles = [GUILD_ID, ...(user.roles ?? [])];
    let base = this.guildPermissions(user);
    if (base === PermissionsBitField.All) return base;
    const overwrites = this.channel(channelId).overwrites;
    const everyone = overwrites.find((o) => o.id === GUILD_ID);
    if (everyone) base = (base & ~everyone.deny) | everyone.allow;
    let allow = 0n;
    let deny = 0n;
    for (const o of overwrites.filter((o) => o.type === 0 && o.id !== GUILD_ID && roles.includes(o.id))) {
      allow |= o.allow;
      deny |= o.deny;
    }
    base = (base & ~deny) | allow;
    const own = overwrites.find((o) => o.type === 1 && o.id === user.id);
    if (own) base = (base & ~own.deny) | own.allow;
    // Who cannot see a channel can do nothing in it; who cannot post cannot embed or attach.
    if ((base & PermissionFlagsBits.ViewChannel) === 0n) return 0n;
    if ((base & PermissionFlagsBits.SendMessages) === 0n)
      base &= ~(
        PermissionFlagsBits.EmbedLinks |
        PermissionFlagsBits.AttachFiles |
        PermissionFlagsBits.MentionEveryone
      );
    return base;
  }

  botPermissions(channelId: string): bigint {
    return this.permissions(BOT_USER, channelId);
  }

  botMay(channelId: string, permission: PermissionName): boolean {
    return (this.botPermissions(channelId) & PermissionFlagsBits[permission]) !== 0n;
  }

  apiMember(user: FakeUser, channelId = CHANNEL_ID) {
    return {
      user: apiUser(user),
      roles: (user.roles ?? []).filter((id) => id !== GUILD_ID),
      nick: null,
      avatar: null,
      joined_at: user.joinedAt ?? '2025-01-01T00:00:00.000Z',
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      permissions: this.permissions(user, channelId).toString(),
    };
  }

  apiRole(role: FakeRole) {
    return {
      id: role.id,
      name: role.name,
      permissions: (role.permissions ?? 0n).toString(),
      position: this.position(role),
      color: 0,
      hoist: false,
      managed: role.managed ?? false,
      mentionable: false,
      flags: 0,
      icon: null,
      unicode_emoji: null,
      ...(role.id === BOT_ROLE_ID ? { tags: { bot_id: BOT_USER_ID } } : {}),
    };
  }

  apiChannel(id: string) {
    const channel = this.channel(id);
    return {
      id: channel.id,
      type: 0,
      guild_id: GUILD_ID,
      name: channel.name,
      position: [...this.#channels.keys()].indexOf(id),
      parent_id: null,
      nsfw: false,
      topic: null,
      last_message_id: null,
      rate_limit_per_user: 0,
      permission_overwrites: channel.overwrites.map((o) => ({
        id: o.id,
        type: o.type,
        allow: o.allow.toString(),
        deny: o.deny.toString(),
      })),
    };
  }

  /** The server as GUILD_CREATE carries it: roles, channels, and the bot's own member. */
  apiGuild() {
    return {
      id: GUILD_ID,
      name: 'Cookie Test Server',
      owner_id: OWNER_ID,
      icon: null,
      features: [],
      roles: [...this.#roles.values()].map((role) => this.apiRole(role)),
      channels: [...this.#channels.keys()].map((id) => this.apiChannel(id)),
      members: [{ ...this.apiMember(BOT_USER), permissions: undefined }],
      emojis: [],
      stickers: [],
      threads: [],
      presences: [],
      voice_states: [],
      stage_instances: [],
      guild_scheduled_events: [],
      member_count: this.#members.size,
      joined_at: '2025-01-01T00:00:00.000Z',
      large: false,
      unavailable: false,
      preferred_locale: 'en-US',
      premium_tier: 0,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      mfa_level: 0,
      nsfw_level: 0,
      system_channel_flags: 0,
    };
  }
}
