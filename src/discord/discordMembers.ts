import type { Client, GuildMember, User } from 'discord.js';
import { AvatarCache } from '../render/avatarCache.js';
import type { MemberFace, MemberLookup } from '../render/memberFaces.js';

export const DISCORD_CDN = 'https://cdn.discordapp.com';

const FRESH_MS = 10 * 60_000;
const MAX_CACHED = 5_000;
/** The longest an image waits for Discord's answer; members not known by then keep the stored name. */
const DEADLINE_MS = 2_500;

/** Discord's picture URL for a member: their server picture, else their account's, else none. */
export function avatarUrl(
  cdn: string,
  who: { id: string; avatar: string | null; guildId?: string | null; guildAvatar?: string | null },
): string | null {
  if (who.guildAvatar && who.guildId)
    return `${cdn}/guilds/${who.guildId}/users/${who.id}/avatars/${who.guildAvatar}.png?size=128`;
  return who.avatar ? `${cdn}/avatars/${who.id}/${who.avatar}.png?size=128` : null;
}

function faceOf(cdn: string, guildId: string | null, user: User, member: GuildMember | null): MemberFace {
  return {
    name: member?.displayName ?? user.globalName ?? user.username,
    avatarUrl: avatarUrl(cdn, {
      id: user.id,
      avatar: user.avatar,
      guildId,
      guildAvatar: member?.avatar ?? null,
    }),
  };
}

/**
 * Members' names and pictures from Discord (the server's member, else the user), each kept for
 * ten minutes: a leaderboard asked for twice asks Discord once. Pictures come from the CDN
 * (`cdn`, injectable for tests) through an AvatarCache.
 */
export function discordMembers(
  client: Pick<Client, 'guilds' | 'users'>,
  options: { cdn?: string; avatars?: AvatarCache; now?: () => number } = {},
): MemberLookup {
  const cdn = options.cdn ?? DISCORD_CDN;
  const avatars = options.avatars ?? new AvatarCache();
  const now = options.now ?? Date.now;
  const known = new Map<string, { face: MemberFace; at: number }>();

  async function ask(guildId: string | null, id: string): Promise<MemberFace | null> {
    const guild = guildId ? await client.guilds.fetch(guildId).catch(() => null) : null;
    const member = guild ? await guild.members.fetch(id).catch(() => null) : null;
    const user = member?.user ?? (await client.users.fetch(id).catch(() => null));
    return user ? faceOf(cdn, guildId, user, member) : null;
  }

  return {
    async find(guildId, ids) {
      const found = new Map<string, MemberFace>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const entry = known.get(`${guildId}:${id}`);
        if (entry && now() - entry.at < FRESH_MS) found.set(id, entry.face);
        else missing.push(id);
      }
      const deadline = new Promise<null>((resolve) => setTimeout(resolve, DEADLINE_MS, null).unref());
      const answers = await Promise.all(missing.map((id) => Promise.race([ask(guildId, id), deadline])));
      missing.forEach((id, i) => {
        const face = answers[i];
        if (!face) return;
        found.set(id, face);
        if (known.size >= MAX_CACHED) known.clear();
        known.set(`${guildId}:${id}`, { face, at: now() });
      });
      return found;
    },
    picture: (url) => avatars.get(url),
  };
}
