import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { renderLeaderboard } from '../../src/render/leaderboardImage.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { COOKIE_BROWN } from '../colors.js';

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
  async run({ deps, i18n }) {
    const size = await deps.runtimeConfig.get('cookies.leaderboard_size');
    const rows = await deps.services.cookies.leaderboard(size);
    const names = await deps.profiles.names(rows.map((r) => r.userId));
    const title = i18n.t('cookies:leaderboard.title');
    const empty = i18n.t('cookies:leaderboard.empty');
    const image = await renderLeaderboard(
      { title, empty, formatValue: (value) => i18n.number(value) },
      rows.map((r) => ({
        rank: r.rank,
        name:
          names.get(r.userId) ?? i18n.t('cookies:leaderboard.unknownMember', { suffix: r.userId.slice(-4) }),
        value: r.cookies,
      })),
    );
    return {
      embeds: [
        {
          title,
          color: COOKIE_BROWN,
          description: rows.length === 0 ? empty : i18n.t('cookies:leaderboard.top', { count: rows.length }),
          imageFile: 'leaderboard.png',
        },
      ],
      files: [{ name: 'leaderboard.png', data: image.png }],
    };
  },
};
