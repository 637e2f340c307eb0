import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import { amountInput, formAmount } from '../../src/interactions/forms.js';
import type { ButtonSpec, CommandContext, Reply } from '../../src/interactions/types.js';
import { INSTANT_GAMES, type InstantGameName } from '../../utils/games/houseGames/index.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { parseOptions } from '../options.js';
import { betSchema } from './bet.js';

const roundField = { round: z.string().regex(/^[\w-]{1,40}$/) };
/** Under a settled round: play the same game with the same choices again. */
export const againButton = defineComponent('games.again', roundField);
/** The form that asks the bet; its answer plays. */
export const againForm = defineComponent('games.again_form', roundField);

/** The Again… button under a round: anyone who sees it may play the same game, with their own Cookies. */
export function againButtonSpec(round: RoundDoc, i18n: Translator): ButtonSpec {
  return {
    customId: againButton.build({ round: round._id }),
    label: i18n.t('games:again.button'),
    style: 'secondary',
    emoji: '🔁',
  };
}

/** The round a button names; one that is gone or not a game of one draw is an old control. */
async function playedRound(ctx: CommandContext, id: string): Promise<RoundDoc & { game: InstantGameName }> {
  const round = await ctx.deps.services.games.get(id);
  if (!round || !INSTANT_GAMES.some((game) => game.name === round.game))
    throw new AppError('STALE_CONTROL', `games.again: no round of one draw ${id}`);
  return round as RoundDoc & { game: InstantGameName };
}

/** Again…: a form with the round's bet filled in and the member's balance as its hint. */
export const againButtonHandler = defineComponentHandler(againButton, {
  async run(ctx, { round: id }) {
    const [round, balance] = await Promise.all([
      playedRound(ctx, id),
      ctx.deps.cookieEconomy.balance(ctx.actor.id),
    ]);
    const { i18n } = ctx;
    return {
      modal: {
        customId: againForm.build({ round: id }),
        title: i18n.t('games:again.title', { game: i18n.t(`games:${round.game}.title`) }),
        inputs: [
          amountInput(
            'bet',
            i18n.t('games:again.bet'),
            i18n.t('games:again.placeholder', { balance: i18n.cookies(balance) }),
            String(round.bet),
          ),
        ],
      },
    };
  },
});

/**
 * The bet typed: the same game with the round's choices (side, target…), a new round of the
 * member who sent the form, told in a new message (the round above stays as it was).
 */
export function againFormHandler(reply: (round: RoundDoc, i18n: Translator) => Reply) {
  return defineComponentHandler(againForm, {
    async run(ctx, { round: id }) {
      const round = await playedRound(ctx, id);
      const typed = formAmount(ctx.invocation, 'bet');
      const { bet } = parseOptions(z.object({ bet: betSchema }), {
        ...ctx.invocation,
        options: { bet: typed },
      });
      const played = await ctx.deps.services.games.playInstant(round.game, {
        roundId: ctx.invocation.id,
        userId: ctx.actor.id,
        bet,
        params: round.params,
      });
      return reply(played, ctx.i18n);
    },
  });
}
