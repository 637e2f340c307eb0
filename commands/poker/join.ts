import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { POKER_MESSAGES } from '../../utils/poker/messages.js';
import { registered } from '../../utils/poker/sitAndGo.js';
import { parseOptions } from '../options.js';
import { boardMessage, boardTiming } from './board.js';

/**
 * `/poker join buyin:<amount>`: sits the member down at the channel's open table with any
 * buy-in between its minimum and maximum (the board's buttons are quick picks); at a
 * tournament, registers them with its one buy-in. During a hand
 * the member is seated for the next one. The board is brought up to date; the reply says it
 * in the channel, for everyone at the table.
 */
export const join: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(POKER_MESSAGES, 'commands.join'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(POKER_MESSAGES, 'commands.buyIn'),
        required: true,
        min_value: 1,
      },
    ],
  },
  async run(ctx) {
    const { buyin } = parseOptions(z.object({ buyin: z.number().int().min(1) }), ctx.invocation);
    const poker = ctx.deps.services.poker;
    const table = await poker.tableIn(ctx.invocation.channelId ?? null);
    const joined = await poker.join(table._id, ctx.actor.id, buyin);
    if (joined.channelId && joined.messageId) {
      const board = boardMessage(joined, ctx.serverI18n, await boardTiming(ctx.deps));
      await ctx.deps.poster.edit(joined.channelId, joined.messageId, board);
    }
    if (joined.sng) {
      return {
        content: ctx.serverI18n.t('poker:sng.registered', {
          who: ctx.actor.id,
          buyIn: ctx.serverI18n.cookies(buyin),
          count: registered(joined),
          players: joined.sng.players,
        }),
      };
    }
    const hand = joined.game.hand;
    // In the hand only from the seat they were dealt at (one who left it and sat down again is not).
    const waiting =
      hand !== null &&
      hand.street !== 'done' &&
      !hand.players.some((p) => p.userId === ctx.actor.id && joined.game.seats[p.seat]?.userId === p.userId);
    return {
      content: ctx.serverI18n.t(waiting ? 'poker:joined.nextHand' : 'poker:joined.seated', {
        who: ctx.actor.id,
        count: buyin,
        chips: ctx.serverI18n.number(buyin),
      }),
    };
  },
};
