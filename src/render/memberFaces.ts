/** How an image shows a member: the name they go by on the server and their picture, if any. */
export interface MemberFace {
  name: string;
  /** Where their picture is served (Discord's CDN), or null when they have none. */
  avatarUrl: string | null;
}

/**
 * Looks members up where they live (Discord), for images that show members who never ran a
 * command (the leaderboard) and their pictures (the profile card). The Discord adapter
 * provides one (src/discord/discordMembers.ts); without it (the console, tests) images use the
 * names the bot has seen and initials instead of pictures.
 */
export interface MemberLookup {
  /** Members by id; an id Discord does not know (or that could not be asked in time) is missing. */
  find(guildId: string | null, ids: readonly string[]): Promise<Map<string, MemberFace>>;
  /** The picture's PNG bytes, or null (none, too slow, not an image). */
  picture(url: string | null): Promise<Buffer | null>;
}
