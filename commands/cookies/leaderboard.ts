import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { BotDeps, Invocation, Subcommand } from '../../src/interactions/types.js';
import { type LeaderboardImageRow, renderLeaderboard } from '../../src/render/leaderboardImage.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { COOKIE_BROWN } from '../colors.js';

/**
 * Members' names: the one the bot saw when they last ran a command, else Discord's (for members
 * who never did; the Discord adapter caches them), else a placeholder with their id's end.
 */
async function namesOf(deps: BotDeps, invocation: Invocation, ids: string[]): Promise<Map<string, string>> {
  const names = await deps.profiles.names(ids);
  const missing = ids.filter((id) => !names.has(id));
  if (missing.length > 0 && deps.members) {
    const found = await deps.members.find(invocation.guildId, missing).catch(() => new Map());
    for (const [id, face] of found) names.set(id, face.name);
  }
  return names;
}

export const leaderboard: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'commands.leaderboard'),
  },
  defer: { ephemeral: false },
  cooldown: {
    action: 'cookies.leaderboard',
    ms: async (deps) => (await deps.runtimeConfig.get('cookies.leaderboard_cooldown_s')) * 1000,
  },
  async run({ deps, invocation, actor, i18n }) {
    const size = await deps.runtimeConfig.get('cookies.leaderboard_size');
    const rows = await deps.services.cookies.leaderboard(size);
    // A reader outside the top: their own row, from their balance and rank (not their history).
    const mine = rows.some((r) => r.userId === actor.id)
      ? null
      : await deps.services.cookies.standing(actor.id);
    const names = await namesOf(
      deps,
      invocation,
      rows.map((r) => r.userId),
    );
    const title = i18n.t('cookies:leaderboard.title');
    const empty = i18n.t('cookies:leaderboard.empty');
    const you: LeaderboardImageRow | null =
      mine?.rank != null
        ? {
            rank: mine.rank,
            name: i18n.t('cookies:leaderboard.yourRow', { name: actor.name }),
            value: mine.balance,
          }
        : null;
    const image = await renderLeaderboard(
      { title, empty, formatValue: (value) => i18n.number(value) },
      rows.map((r) => ({
        rank: r.rank,
        name:
          names.get(r.userId) ?? i18n.t('cookies:leaderboard.unknownMember', { suffix: r.userId.slice(-4) }),
        value: r.cookies,
      })),
      { you },
    );
    const top = rows.length === 0 ? empty : i18n.t('cookies:leaderboard.top', { count: rows.length });
    const yours = you
      ? i18n.t('cookies:leaderboard.yourRank', {
          rank: i18n.number(you.rank),
          amount: i18n.cookies(you.value),
        })
      : null;
    return {
      embeds: [
        {
          title,
          color: COOKIE_BROWN,
          description: yours ? `${top}\n${yours}` : top,
          imageFile: 'leaderboard.png',
        },
      ],
      files: [{ name: 'leaderboard.png', data: image.png }],
    };
  },
};
