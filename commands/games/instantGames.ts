import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Invocation, Reply, Subcommand } from '../../src/interactions/types.js';
import { INSTANT_GAMES, type InstantGameName, instantGame } from '../../utils/games/houseGames/index.js';
import { GAMES_MESSAGES } from '../../utils/games/messages.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { parseOptions } from '../options.js';
import { againButtonSpec } from './again.js';
import { BET_OPTION, betSchema, fairnessFooter, resultLine } from './bet.js';

const GAME_COLOR = 0x6d4c9f;

/** A settled instant round: what was drawn, what it paid, how to check it, and Again…. */
export function roundReply(round: RoundDoc, i18n: Translator): Reply {
  const drawn = instantGame(round.game as InstantGameName).drawn(round.outcome ?? {}, round.params, i18n);
  return {
    ...(round.status === 'settled' ? { buttons: [againButtonSpec(round, i18n)] } : {}),
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

/**
 * The subcommand of every game of one draw, derived from its entry (utils/games/houseGames/):
 * the bet, then its own options; its choices parsed by its own schema.
 */
export const INSTANT_GAME_COMMANDS: readonly Subcommand[] = INSTANT_GAMES.map((game) => {
  const options = z.object({ bet: betSchema }).passthrough();
  return {
    definition: {
      type: ApplicationCommandOptionType.Subcommand,
      ...localized(GAMES_MESSAGES, `${game.name}.command`),
      options: [BET_OPTION, ...game.options],
    },
    async run(ctx) {
      const { bet, ...given } = parseOptions(options, ctx.invocation);
      const choices = { ...ctx.invocation, options: given as Invocation['options'] };
      const params = parseOptions(game.params, choices) as Record<string, string | number>;
      const round = await ctx.deps.services.games.playInstant(game.name as InstantGameName, {
        roundId: ctx.invocation.id,
        userId: ctx.actor.id,
        bet,
        params,
      });
      return roundReply(round, ctx.i18n);
    },
  };
});
