import { ApplicationCommandOptionType } from 'discord.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { renderLeaderboard } from '../../src/render/leaderboardImage.js';
import { COOKIE_BROWN } from '../colors.js';

export const leaderboard: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    name: 'leaderboard',
    description: 'The members with the most Cookies, as an image',
  },
  defer: { ephemeral: false },
  cooldown: {
    action: 'cookies.leaderboard',
    ms: async (deps) => (await deps.runtimeConfig.get('cookies.leaderboard_cooldown_s')) * 1000,
  },
  async run({ deps }) {
    const size = await deps.runtimeConfig.get('cookies.leaderboard_size');
    const rows = await deps.services.cookies.leaderboard(size);
    const names = await deps.profiles.names(rows.map((r) => r.userId));
    const image = await renderLeaderboard(
      'Cookie leaderboard',
      rows.map((r) => ({
        rank: r.rank,
        name: names.get(r.userId) ?? `Member …${r.userId.slice(-4)}`,
        value: r.cookies,
      })),
    );
    return {
      embeds: [
        {
          title: 'Cookie leaderboard',
          color: COOKIE_BROWN,
          description: rows.length === 0 ? 'Nobody has any Cookies yet.' : `Top ${rows.length} by Cookies.`,
          imageFile: 'leaderboard.png',
        },
      ],
      files: [{ name: 'leaderboard.png', data: image.png }],
    };
  },
};
