import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { type AppError, invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { CommandContext, Reply, Subcommand } from '../../src/interactions/types.js';
import { MAX_SEATS } from '../../utils/poker/engine.js';
import { POKER_MESSAGES } from '../../utils/poker/messages.js';
import {
  DEFAULT_PAYOUTS,
  hasStarted,
  levelAt,
  levelBlinds,
  levelStart,
  places,
  prizeAmounts,
  registered,
  type SitAndGo,
} from '../../utils/poker/sitAndGo.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { parseOptions } from '../options.js';

/** Places paid: at most three, and never every entrant. */
const MAX_PAID = 3;

/**
 * "65/35", "50/30/20" or "100": whole percents, first place first, none larger than the one
 * before, summing to 100.
 */
const payouts = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\s*[/,;]\s*\d{1,3}){0,2}$/, 'poker:errors.payoutsFormat')
  .transform((text) => text.split(/\s*[/,;]\s*/).map(Number))
  .refine((p) => p.every((x, i) => x > 0 && (i === 0 || x <= (p[i - 1] ?? 0))), 'poker:errors.payoutsOrder')
  .refine((p) => p.reduce((n, x) => n + x, 0) === 100, 'poker:errors.payoutsSum');

/**
 * `/poker tournament buy_in:<Cookies> players:<2–9> [payouts:65/35]`: opens a sit-and-go in
 * this channel. Members register with the buy-in (the board's button or `/poker join`); it
 * starts by itself once full (or the host starts it with two or more), and its blinds rise
 * every level until one player holds every chip.
 */
export function tournament(board: (ctx: CommandContext, table: TableDoc) => Promise<Reply>): Subcommand {
  return {
    definition: {
      type: ApplicationCommandOptionType.Subcommand,
      ...localized(POKER_MESSAGES, 'commands.tournament'),
      options: [
        {
          type: ApplicationCommandOptionType.Integer,
          ...localized(POKER_MESSAGES, 'commands.tournamentBuyIn'),
          required: true,
          min_value: 1,
          max_value: 1_000_000_000,
        },
        {
          type: ApplicationCommandOptionType.Integer,
          ...localized(POKER_MESSAGES, 'commands.tournamentPlayers'),
          required: true,
          min_value: 2,
          max_value: MAX_SEATS,
        },
        {
          type: ApplicationCommandOptionType.String,
          ...localized(POKER_MESSAGES, 'commands.tournamentPayouts'),
          max_length: 20,
        },
      ],
    },
    async run(ctx) {
      const options = parseOptions(
        z.object({
          buy_in: z.number().int().min(1).max(1_000_000_000),
          players: z.number().int().min(2).max(MAX_SEATS),
          payouts: payouts.optional(),
        }),
        ctx.invocation,
      );
      // Payouts the host chose must fit the field; the default pays as many of its places as fit.
      const paid = options.payouts ?? DEFAULT_PAYOUTS;
      if (options.payouts && paid.length > Math.min(MAX_PAID, Math.max(1, options.players - 1))) {
        throw invalidPlaces(paid.length, options.players);
      }
      const c = ctx.deps.runtimeConfig;
      const table = await ctx.deps.services.poker.create({
        tableId: ctx.invocation.id,
        hostId: ctx.actor.id,
        channelId: ctx.invocation.channelId ?? null,
        guildId: ctx.invocation.guildId,
        locale: ctx.serverI18n.locale,
        sng: {
          buyIn: options.buy_in,
          players: options.players,
          stack: await c.get('poker.sng_stack'),
          smallBlind: await c.get('poker.sng_small_blind'),
          levelS: await c.get('poker.sng_level_s'),
          payouts: paid,
        },
      });
      return {
        ...(await board(ctx, table)),
        onSent: ({ messageId }) => ctx.deps.services.poker.rememberMessage(table, messageId),
      };
    },
  };
}

/** More places paid than the tournament allows: the numbers say how many it may pay. */
function invalidPlaces(places: number, players: number): AppError {
  const most = Math.min(MAX_PAID, Math.max(1, players - 1));
  return invalidInputText(`${places} places paid of ${players}`, 'poker:errors.payoutsPlaces', {
    places,
    players,
    most,
  });
}

/** The title of a tournament's board: its buy-in, and once under way the level and blinds. */
export function tournamentTitle(t: TableDoc, sng: SitAndGo, i18n: Translator): string {
  return hasStarted(t)
    ? i18n.t('poker:sng.titleLevel', {
        buyIn: i18n.cookies(sng.buyIn),
        level: levelOf(t, sng) + 1,
        small: t.game.smallBlind,
        big: t.game.bigBlind,
      })
    : i18n.t('poker:sng.title', { buyIn: i18n.cookies(sng.buyIn) });
}

/** The level of the hand in play (or the last one dealt). */
function levelOf(t: TableDoc, sng: SitAndGo): number {
  return levelAt(sng, t.dealtAt ?? t.stepAt);
}

/**
 * A tournament's own lines: the prize pool and what each place gets, the players left, and the
 * next blind level with its time (`now`: when the board is drawn).
 */
export function tournamentLines(t: TableDoc, sng: SitAndGo, i18n: Translator, now: Date): string[] {
  // Once over, the standings say who got what (tournamentNextSteps).
  if (sng.prizes) return [];
  const pool = t.chips.in - t.chips.out;
  if (!hasStarted(t)) {
    // Before the start, the shares as they will be paid once every seat is taken (of 100).
    const shares = prizeAmounts(100, sng.payouts, sng.players);
    const split = shares
      .map((pct, i) => `${placeText(i + 1, i18n)} ${i18n.t('poker:sng.percent', { pct })}`)
      .join(' · ');
    return [i18n.t('poker:sng.poolShares', { pool: i18n.cookies(pool), split })];
  }
  const entrants = sng.entrants?.length ?? 0;
  const shares = prizeAmounts(pool, sng.payouts, entrants);
  const lines = [
    i18n.t('poker:sng.pool', {
      pool: i18n.cookies(pool),
      split: shares.map((amount, i) => `${placeText(i + 1, i18n)} ${i18n.cookies(amount)}`).join(' · '),
    }),
  ];
  if (t.status !== 'closed') {
    const level = levelOf(t, sng);
    const current = Math.max(level, levelAt(sng, now));
    const next = levelBlinds(sng, current + 1);
    lines.push(
      i18n.t('poker:sng.left', { left: entrants - sng.out.length, entrants }),
      // A level that began during the hand in play applies from the next deal.
      current > level
        ? i18n.t('poker:sng.nextHandBlinds', { ...levelBlinds(sng, current) })
        : i18n.t('poker:sng.nextLevel', {
            small: next.small,
            big: next.big,
            atSeconds: Math.floor(levelStart(sng, current + 1).getTime() / 1000),
          }),
    );
  }
  return lines;
}

/** What a tournament does next, or how it ended: said instead of a cash table's next steps. */
export function tournamentNextSteps(t: TableDoc, sng: SitAndGo, i18n: Translator, nextS: number): string[] {
  if (sng.prizes) {
    return [i18n.t('poker:sng.over'), ...standingLines(sng, i18n)];
  }
  if (t.status === 'closed') return [i18n.t('poker:sng.calledOff')];
  if (!hasStarted(t)) {
    const count = registered(t);
    return [
      i18n.t('poker:sng.register', {
        buyIn: i18n.cookies(sng.buyIn),
        count,
        players: sng.players,
        stack: i18n.number(sng.stack),
      }),
      count >= sng.players && t.pending.length === 0
        ? i18n.t('poker:sng.full', { host: t.hostId })
        : i18n.t('poker:sng.starts', { host: t.hostId, players: sng.players }),
    ];
  }
  const hand = t.game.hand;
  if (hand && hand.street !== 'done') return [];
  return [i18n.t('poker:board.dealsNext', { atSeconds: Math.floor(t.stepAt.getTime() / 1000) + nextS })];
}

/** Who went out in a hand, with the place they finished in (shared when tied). */
export function outLine(sng: SitAndGo, userId: string, i18n: Translator): string {
  return i18n.t('poker:sng.out', { who: userId, place: placeOf(sng, userId) });
}

/** Who gave up during the hand `hand` (or after it), with the place that left them. */
export function gaveUpLines(sng: SitAndGo, hand: number, i18n: Translator): string[] {
  return sng.out
    .filter((b) => b.forfeit && b.hand === hand)
    .map((b) => i18n.t('poker:sng.gaveUp', { who: b.userId, place: placeOf(sng, b.userId) }));
}

/** The place a player out finished in: below everyone still in, by the order out. */
function placeOf(sng: SitAndGo, userId: string): number {
  const above = (sng.entrants?.length ?? 0) - sng.out.length;
  return above + (places(sng, null).find((p) => p.userIds.includes(userId))?.place ?? 0);
}

/** The final standings: every entrant by place, with the Cookies each prize paid. */
function standingLines(sng: SitAndGo, i18n: Translator): string[] {
  const winner = sng.entrants?.find((id) => !sng.out.some((b) => b.userId === id)) ?? null;
  return places(sng, winner).flatMap(({ place, userIds }) =>
    userIds.map((userId) => {
      const prize = sng.prizes?.find((p) => p.userId === userId);
      return [placeText(place, i18n), `<@${userId}>`, ...(prize ? [i18n.cookies(prize.amount)] : [])].join(
        ' ',
      );
    }),
  );
}

/** 🥇, 🥈, 🥉, then "4." — a place as the board shows it. */
export function placeText(place: number, i18n: Translator): string {
  return ['🥇', '🥈', '🥉'][place - 1] ?? i18n.t('poker:sng.place', { place });
}
