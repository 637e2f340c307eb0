import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { renderProfileCard } from '../../src/render/profileCard.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { COOKIE_BROWN } from '../colors.js';
import { memberOption, parseOptions } from '../options.js';

const options = z.object({ user: memberOption.optional() });

export const profile: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'commands.profile'),
    options: [
      { type: ApplicationCommandOptionType.User, ...localized(COOKIES_MESSAGES, 'commands.profileUser') },
    ],
  },
  defer: { ephemeral: false },
  async run({ deps, invocation, actor, i18n }) {
    const { user } = parseOptions(options, invocation);
    const userId = user ?? actor.id;
    const [p, games, names, streakMax] = await Promise.all([
      deps.services.cookies.profile(userId),
      deps.services.games.stats(userId),
      deps.profiles.names([userId]),
      deps.runtimeConfig.get('cookies.collect_streak_max_days'),
    ]);
    const name = invocation.users[userId] ?? names.get(userId) ?? (userId === actor.id ? actor.name : userId);
    // The card's font has no emoji: amounts on it are plain numbers, the unit is written out once.
    const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${i18n.number(Math.abs(n))}`;
    const stats = [
      {
        label: i18n.t('cookies:profile.collects'),
        value: `${i18n.number(p.collects)} · ${i18n.number(p.collected)}`,
      },
      {
        label: i18n.t('cookies:profile.games'),
        value: i18n.t('cookies:profile.gamesValue', {
          played: i18n.number(games.played),
          won: i18n.number(games.won),
        }),
      },
      { label: i18n.t('cookies:profile.gamesNet'), value: signed(games.net) },
      { label: i18n.t('cookies:profile.stolen'), value: i18n.number(p.stolen) },
      { label: i18n.t('cookies:profile.lost'), value: i18n.number(p.lostToThieves) },
      { label: i18n.t('cookies:profile.heists'), value: `${i18n.number(p.heists)} · ${signed(p.heistNet)}` },
    ];
    const rank = p.rank === null ? '—' : `#${i18n.number(p.rank)}`;
    const streakLabel = i18n.t('cookies:profile.streak', { count: p.streak, best: p.bestStreak });
    const text = [
      `**${i18n.cookies(p.balance)}** · ${i18n.t('cookies:profile.rank')} ${rank}`,
      streakLabel,
      ...stats.map((s) => `${s.label}: ${s.value}`),
    ].join('\n');
    const title = i18n.t('cookies:profile.title');
    const card = await renderProfileCard({
      name,
      title,
      balance: i18n.number(p.balance),
      unit: i18n.t('cookies:profile.unit', { count: p.balance }),
      rank,
      stats,
      streakProgress: streakMax > 0 ? Math.max(0, p.streak - 1) / streakMax : 1,
      streakLabel,
    }).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'profile card failed; replying with text');
      return null;
    });
    if (!card) return { embeds: [{ title: `${title}: ${name}`, color: COOKIE_BROWN, description: text }] };
    return {
      embeds: [
        { title: `${title}: ${name}`, color: COOKIE_BROWN, description: text, imageFile: 'profile.png' },
      ],
      files: [{ name: 'profile.png', data: card.png }],
    };
  },
};
