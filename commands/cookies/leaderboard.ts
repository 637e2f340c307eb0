import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import { lookup } from '../../src/i18n/i18n.js';
import type { BotDeps, Invocation, Subcommand } from '../../src/interactions/types.js';
import { type LeaderboardImageRow, renderLeaderboard } from '../../src/render/leaderboardImage.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { COOKIE_BROWN } from '../colors.js';
import { parseOptions } from '../options.js';

type Scope = 'server' | 'global';

/** A row of the board: the member's rank (among whom the scope counts), id, Cookies and name. */
interface BoardRow {
  rank: number;
  userId: string;
  cookies: number;
  name: string;
}

/**
 * This server's board: the members the bot has seen here, ranked among themselves, each under
 * the name they last had here (every such member has one, so no row is left out).
 */
async function serverBoard(deps: BotDeps, guildId: string, actorId: string, size: number) {
  const members = await deps.serverMembers.members(guildId);
  const ranked = await deps.services.cookies.leaderboardAmong([...members.keys()]);
  const named = (r: (typeof ranked)[number]): BoardRow => ({ ...r, name: members.get(r.userId) ?? r.userId });
  const rows = ranked.slice(0, size).map(named);
  const mine = ranked.find((r) => r.userId === actorId);
  return { rows, mine: mine && mine.rank > size ? { rank: mine.rank, balance: mine.cookies } : null };
}

/**
 * The board of all servers. Names: the one the bot saw when the member last ran a command, else
 * the one it saw in a server, else Discord's in this server (the Discord adapter caches them). A
 * member none of them names (one who only ever received Cookies in another server, or whose
 * profile the inactive cleanup removed) is left out rather than shown as an id's end; their rank
 * is kept, so the numbers stay true, and the board reads on to fill its rows.
 */
async function globalBoard(deps: BotDeps, invocation: Invocation, actorId: string, size: number) {
  let top = await deps.services.cookies.leaderboard(size);
  let names = await namesOf(
    deps,
    invocation,
    top.map((r) => r.userId),
  );
  if (top.filter((r) => names.has(r.userId)).length < size && top.length === size) {
    const asked = new Set(top.map((r) => r.userId));
    top = await deps.services.cookies.leaderboard(2 * size);
    const more = await namesOf(
      deps,
      invocation,
      top.map((r) => r.userId).filter((id) => !asked.has(id)),
    );
    names = new Map([...names, ...more]);
  }
  const rows = top.flatMap((r) => {
    const name = names.get(r.userId);
    return name === undefined ? [] : [{ ...r, name }];
  });
  const shown = rows.slice(0, size);
  // A reader outside the top: their own row, from their balance and rank (not their history).
  const mine = shown.some((r) => r.userId === actorId) ? null : await deps.services.cookies.standing(actorId);
  return { rows: shown, mine: mine?.rank != null ? { rank: mine.rank, balance: mine.balance } : null };
}

async function namesOf(deps: BotDeps, invocation: Invocation, ids: string[]): Promise<Map<string, string>> {
  const names = await deps.profiles.names(ids);
  const seen = await deps.serverMembers.names(ids.filter((id) => !names.has(id)));
  for (const [id, name] of seen) names.set(id, name);
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
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(COOKIES_MESSAGES, 'commands.leaderboardScope'),
        choices: (['server', 'global'] as const).map((value) => ({
          name: lookup(COOKIES_MESSAGES.en, `choices.scope.${value}`) ?? value,
          value,
          name_localizations: { de: lookup(COOKIES_MESSAGES.de, `choices.scope.${value}`) ?? value },
        })),
      },
    ],
  },
  defer: { ephemeral: false },
  cooldown: {
    action: 'cookies.leaderboard',
    ms: async (deps) => (await deps.runtimeConfig.get('cookies.leaderboard_cooldown_s')) * 1000,
  },
  async run({ deps, invocation, actor, i18n }) {
    const asked = parseOptions(z.object({ scope: z.enum(['server', 'global']).optional() }), invocation);
    // Outside a server (a direct message) there is no server to read: the board of all servers.
    const guildId = invocation.guildId;
    const scope: Scope = guildId === null ? 'global' : (asked.scope ?? 'server');
    const size = await deps.runtimeConfig.get('cookies.leaderboard_size');
    const { rows, mine } =
      scope === 'server' && guildId !== null
        ? await serverBoard(deps, guildId, actor.id, size)
        : await globalBoard(deps, invocation, actor.id, size);
    const title = i18n.t(
      scope === 'server' ? 'cookies:leaderboard.titleServer' : 'cookies:leaderboard.titleGlobal',
    );
    const empty = i18n.t('cookies:leaderboard.empty');
    const you: LeaderboardImageRow | null = mine
      ? {
          rank: mine.rank,
          name: i18n.t('cookies:leaderboard.yourRow', { name: actor.name }),
          value: mine.balance,
        }
      : null;
    const image = await renderLeaderboard(
      { title, empty, formatValue: (value) => i18n.number(value) },
      rows.map((r) => ({ rank: r.rank, name: r.name, value: r.cookies })),
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
