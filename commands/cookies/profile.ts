import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { BotDeps, Invocation, Subcommand } from '../../src/interactions/types.js';
import { discColor, initialsOf } from '../../src/render/canvasTools.js';
import { type ProfileCardData, renderProfileCard } from '../../src/render/profileCard.js';
import type { CookieProfile } from '../../utils/cookies/cookieService.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { belongingsOf } from '../../utils/cookies/protections.js';
import { COOKIE_BROWN } from '../colors.js';
import { memberOption, parseOptions } from '../options.js';

const options = z.object({ user: memberOption.optional() });

/** What the card and its text say about a member, in the reader's language. */
export interface ProfileFacts {
  name: string;
  userId: string;
  profile: CookieProfile;
  games: { played: number; won: number; net: number };
  streak: { bonusPct: number; maxDays: number };
  /** What the member owns besides Cookies (the shop's items and roles). */
  belongings?: { name: string; count: number }[];
}

/** The card's texts (also the reply's text when the card cannot be drawn). */
export function profileCardTexts(i18n: Translator, facts: ProfileFacts): Omit<ProfileCardData, 'face'> {
  const { profile: p, games, streak } = facts;
  // The card's font has no emoji: amounts on it are numbers with the unit written out.
  const amount = (n: number, signed = false) =>
    i18n.t('cookies:profile.amount', {
      count: Math.abs(n),
      n: `${signed && n > 0 ? '+' : n < 0 ? '−' : ''}${i18n.number(Math.abs(n))}`,
    });
  const count = (key: string, n: number) => i18n.t(key, { count: n, n: i18n.number(n) });
  const stats = [
    {
      label: i18n.t('cookies:profile.collects'),
      value: `${i18n.number(p.collects)}× · ${amount(p.collected)}`,
    },
    {
      label: i18n.t('cookies:profile.games'),
      value: `${count('cookies:profile.gamesPlayed', games.played)} · ${count('cookies:profile.gamesWon', games.won)}`,
    },
    { label: i18n.t('cookies:profile.gamesNet'), value: amount(games.net, true) },
    {
      label: i18n.t('cookies:profile.heists'),
      value: `${i18n.number(p.heists)}× · ${amount(p.heistNet, true)}`,
    },
    { label: i18n.t('cookies:profile.stolen'), value: amount(p.stolen) },
    { label: i18n.t('cookies:profile.lost'), value: amount(p.lostToThieves) },
  ];
  const bonusDays = Math.min(Math.max(0, p.streak - 1), streak.maxDays);
  const owned = (facts.belongings ?? []).map((b) =>
    b.count > 1 ? `${b.name} ×${i18n.number(b.count)}` : b.name,
  );
  return {
    ...(owned.length > 0
      ? { belongings: i18n.t('cookies:profile.belongings', { list: owned.join(' · ') }) }
      : {}),
    name: facts.name,
    title: i18n.t('cookies:profile.title'),
    balance: i18n.number(p.balance),
    unit: i18n.t('cookies:profile.unit', { count: p.balance }),
    rank: p.rank === null ? '—' : `#${i18n.number(p.rank)}`,
    rankTitle: i18n.t('cookies:profile.rankTitle'),
    stats,
    streakProgress: streak.maxDays > 0 ? bonusDays / streak.maxDays : 1,
    streakLabel: i18n.t('cookies:profile.streak', {
      count: p.streak,
      n: i18n.number(p.streak),
      bonus: i18n.number(bonusDays * streak.bonusPct),
      best: i18n.number(p.bestStreak),
    }),
  };
}

/** The member's name and picture: Discord's when the adapter can ask, else the name the bot has seen. */
async function faceOf(deps: BotDeps, invocation: Invocation, userId: string, fallbackName: string) {
  const found = (await deps.members?.find(invocation.guildId, [userId]).catch(() => null))?.get(userId);
  const name = invocation.users[userId] ?? found?.name ?? fallbackName;
  const picture = found?.avatarUrl ? await deps.members?.picture(found.avatarUrl) : null;
  return { name, face: { picture: picture ?? null, initials: initialsOf(name), color: discColor(userId) } };
}

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
    const [p, games, names, maxDays, bonusPct, passive, belongings] = await Promise.all([
      deps.services.cookies.profile(userId),
      deps.services.games.stats(userId),
      deps.profiles.names([userId]),
      deps.runtimeConfig.get('cookies.collect_streak_max_days'),
      deps.runtimeConfig.get('cookies.collect_streak_bonus_pct'),
      deps.services.passive.status(userId),
      belongingsOf(deps.featureHooks.of('cookies.belongings'), userId),
    ]);
    const stored = names.get(userId) ?? (userId === actor.id ? actor.name : userId);
    const { name, face } = await faceOf(deps, invocation, userId, stored);
    const texts = profileCardTexts(i18n, {
      name,
      userId,
      profile: p,
      games,
      streak: { bonusPct, maxDays },
      belongings,
    });
    const text = [
      `**${i18n.cookies(p.balance)}** · ${i18n.t('cookies:profile.rank')} ${texts.rank}`,
      texts.streakLabel,
      ...texts.stats.map((s) => `${s.label}: ${s.value}`),
      ...(texts.belongings ? [texts.belongings] : []),
      ...(passive
        ? [i18n.t('cookies:passive.profile', { sinceSeconds: Math.ceil(passive.since.getTime() / 1000) })]
        : []),
    ].join('\n');
    const card = await renderProfileCard({ ...texts, face }).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'profile card failed; replying with text');
      return null;
    });
    const embed = { title: `${texts.title}: ${name}`, color: COOKIE_BROWN, description: text };
    if (!card) return { embeds: [embed] };
    return {
      embeds: [{ ...embed, imageFile: 'profile.png' }],
      files: [{ name: 'profile.png', data: card.png }],
    };
  },
};
