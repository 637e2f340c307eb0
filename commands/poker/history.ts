import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { BotDeps, Subcommand } from '../../src/interactions/types.js';
import { POKER_MESSAGES } from '../../utils/poker/messages.js';
import { HISTORY_MAX } from '../../utils/poker/pokerHands.js';
import { pokerStarsFile } from '../../utils/poker/pokerStars.js';
import { memberOption, parseOptions } from '../options.js';

/** The felt of the tables, for what is read back from them. */
const FELT = 0x1f6f43;
/** Hands the file holds when `count` is left out, and lines the reply lists at most. */
const HISTORY_DEFAULT = 10;
const LISTED = 10;
const BOARD_SIZE = 10;

/** Members' names as the bot last saw them (the profile, else a server): a file needs every one. */
async function namesOf(deps: BotDeps, ids: readonly string[]): Promise<Map<string, string>> {
  const names = await deps.profiles.names([...ids]);
  const seen = await deps.serverMembers.names(ids.filter((id) => !names.has(id)));
  for (const [id, name] of seen) names.set(id, name);
  return names;
}

/** A change of chips as the reader reads it: +1,200 🍪, −300 🍪, ±0. */
function result(net: number, i18n: Translator): string {
  if (net === 0) return i18n.t('poker:hands.even');
  return i18n.t(net > 0 ? 'poker:hands.won' : 'poker:hands.lost', { amount: i18n.cookies(Math.abs(net)) });
}

/** A change of tournament chips, which are not Cookies: +1,200 chips (tournament). */
function chipsResult(net: number, i18n: Translator): string {
  const sign = net > 0 ? '+' : net < 0 ? '−' : '±';
  return i18n.t('poker:hands.tournament', { chips: `${sign}${i18n.number(Math.abs(net))}` });
}

/**
 * `/poker history [count]`: the member's last hands, listed (id, date, position, result), and the
 * last `count` as a PokerStars hand history file, with their own hole cards dealt face up.
 */
export const history: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(POKER_MESSAGES, 'commands.history'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(POKER_MESSAGES, 'commands.historyCount'),
        min_value: 1,
        max_value: HISTORY_MAX,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { count } = parseOptions(
      z.object({ count: z.number().int().min(1).max(HISTORY_MAX).optional() }),
      invocation,
    );
    const entries = await deps.services.pokerHands.history(actor.id, count ?? HISTORY_DEFAULT);
    if (entries.length === 0) return { ephemeral: true, content: i18n.t('poker:hands.historyEmpty') };
    const hands = entries.map((e) => e.hand);
    const names = await namesOf(deps, [...new Set(hands.flatMap((h) => h.seats.map((s) => s.userId)))]);
    // Oldest first, as a poker room writes its file.
    const file = pokerStarsFile([...hands].reverse(), names, actor.id);
    const lines = entries.slice(0, LISTED).map((e) => {
      const text = e.hand.tournament ? chipsResult(e.net, i18n) : result(e.net, i18n);
      return i18n.t('poker:hands.historyLine', {
        hand: `${e.hand.tableId}#${e.hand.number}`,
        at: Math.floor(e.hand.endedAt.getTime() / 1000),
        position: e.position,
        result: e.hand.calledOff ? i18n.t('poker:hands.calledOff', { result: text }) : text,
      });
    });
    if (entries.length > LISTED)
      lines.push(i18n.t('poker:hands.historyMore', { count: entries.length - LISTED }));
    return {
      ephemeral: true,
      content: i18n.t('poker:hands.historyFile', { count: entries.length }),
      embeds: [{ title: i18n.t('poker:hands.historyTitle'), color: FELT, description: lines.join('\n') }],
      files: [{ name: `poker-hands-${actor.id}.txt`, data: Buffer.from(file, 'utf8') }],
    };
  },
};

/** `/poker stats [user]`: hands played, VPIP, net Cookies and the biggest pot won, over every table. */
export const stats: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(POKER_MESSAGES, 'commands.stats'),
    options: [
      { type: ApplicationCommandOptionType.User, ...localized(POKER_MESSAGES, 'commands.statsUser') },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { user } = parseOptions(z.object({ user: memberOption.optional() }), invocation);
    const target = user ?? actor.id;
    const name = target === actor.id ? actor.name : (invocation.users[target] ?? target);
    const s = await deps.services.pokerHands.stats(target);
    if (s.hands === 0) return { ephemeral: true, content: i18n.t('poker:hands.statsEmpty', { name }) };
    const percent = i18n.number(Math.round((s.vpipHands / s.hands) * 1000) / 10);
    return {
      embeds: [
        {
          title: i18n.t('poker:hands.statsTitle', { name }),
          color: FELT,
          fields: [
            { name: i18n.t('poker:hands.statsHands'), value: i18n.number(s.hands), inline: true },
            {
              name: i18n.t('poker:hands.statsVpip'),
              value: i18n.t('poker:hands.statsVpipValue', {
                percent,
                count: i18n.number(s.vpipHands),
                hands: i18n.number(s.hands),
              }),
              inline: true,
            },
            { name: i18n.t('poker:hands.statsNet'), value: result(s.net, i18n), inline: true },
            { name: i18n.t('poker:hands.statsBiggest'), value: i18n.cookies(s.biggestPot), inline: true },
          ],
        },
      ],
    };
  },
};

/**
 * `/poker leaderboard`: this server's players by their net Cookies over the hands played at its
 * tables, each under the name they last had here.
 */
export const leaderboard: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(POKER_MESSAGES, 'commands.leaderboard'),
  },
  async run({ deps, invocation, i18n }) {
    const guildId = invocation.guildId;
    if (guildId === null) return { ephemeral: true, content: i18n.t('poker:hands.boardServerOnly') };
    const rows = await deps.services.pokerHands.leaderboard(guildId, BOARD_SIZE);
    const here = await deps.serverMembers.members(guildId);
    const names = await namesOf(
      deps,
      rows.map((r) => r.userId).filter((id) => !here.has(id)),
    );
    const lines = rows.map((r, i) =>
      i18n.t('poker:hands.boardLine', {
        rank: i + 1,
        name: here.get(r.userId) ?? names.get(r.userId) ?? r.userId,
        result: result(r.net, i18n),
        hands: i18n.t('poker:hands.boardHands', { count: r.hands }),
      }),
    );
    return {
      embeds: [
        {
          title: i18n.t('poker:hands.boardTitle'),
          color: FELT,
          description: lines.length > 0 ? lines.join('\n') : i18n.t('poker:hands.boardEmpty'),
        },
      ],
    };
  },
};
