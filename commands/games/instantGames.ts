import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { CommandContext, Reply, Subcommand } from '../../src/interactions/types.js';
import type { InstantGameName } from '../../utils/games/catalog.js';
import { GAMES_MESSAGES } from '../../utils/games/messages.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { DICE_MAX_TARGET, DICE_MIN_TARGET } from '../../utils/games/rules/dice.js';
import { parseOptions } from '../options.js';
import { BET_OPTION, betSchema, fairnessFooter, resultLine } from './bet.js';

const GAME_COLOR = 0x6d4c9f;

async function play(
  ctx: CommandContext,
  game: InstantGameName,
  bet: number,
  params: Record<string, string | number>,
): Promise<Reply> {
  const round = await ctx.deps.services.games.playInstant(game, {
    roundId: ctx.invocation.id,
    userId: ctx.actor.id,
    bet,
    params,
  });
  return roundReply(round, ctx.i18n);
}

/** A settled instant round: what was drawn, what it paid, and how to check it. */
export function roundReply(round: RoundDoc, i18n: Translator): Reply {
  const outcome = round.outcome ?? {};
  const drawn =
    round.game === 'coinflip'
      ? i18n.t('games:coinflip.landed', {
          side: i18n.t(`games:coinflip.${String(outcome.landed)}`),
          call: i18n.t(`games:coinflip.${String(round.params.side)}`),
        })
      : round.game === 'dice'
        ? i18n.t('games:dice.rolled', { roll: outcome.roll, target: round.params.target })
        : i18n.t('games:slots.reels', { reels: (outcome.reels as string[] | undefined)?.join(' ') ?? '' });
  return {
    embeds: [
      {
        title: i18n.t(`games:${round.game}.title`),
        color: GAME_COLOR,
        description: [
          drawn,
          round.status === 'settled' ? resultLine(round, i18n) : i18n.t('games:round.pending'),
        ].join('\n'),
        footer: fairnessFooter(round, i18n),
      },
    ],
  };
}

export const coinflipCommand: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(GAMES_MESSAGES, 'commands.coinflip'),
    options: [
      BET_OPTION,
      {
        type: ApplicationCommandOptionType.String,
        ...localized(GAMES_MESSAGES, 'commands.side'),
        required: true,
        choices: [
          { name: 'heads', value: 'heads', name_localizations: { de: 'Kopf' } },
          { name: 'tails', value: 'tails', name_localizations: { de: 'Zahl' } },
        ],
      },
    ],
  },
  async run(ctx) {
    const { bet, side } = parseOptions(
      z.object({ bet: betSchema, side: z.enum(['heads', 'tails']) }),
      ctx.invocation,
    );
    return play(ctx, 'coinflip', bet, { side });
  },
};

export const diceCommand: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(GAMES_MESSAGES, 'commands.dice'),
    options: [
      BET_OPTION,
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(GAMES_MESSAGES, 'commands.target'),
        min_value: DICE_MIN_TARGET,
        max_value: DICE_MAX_TARGET,
      },
    ],
  },
  async run(ctx) {
    const { bet, target } = parseOptions(
      z.object({
        bet: betSchema,
        target: z.number().int().min(DICE_MIN_TARGET).max(DICE_MAX_TARGET).default(50),
      }),
      ctx.invocation,
    );
    return play(ctx, 'dice', bet, { target });
  },
};

export const slotsCommand: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(GAMES_MESSAGES, 'commands.slots'),
    options: [BET_OPTION],
  },
  async run(ctx) {
    const { bet } = parseOptions(z.object({ bet: betSchema }), ctx.invocation);
    return play(ctx, 'slots', bet, {});
  },
};
