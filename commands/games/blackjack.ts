import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { ButtonSpec, Reply, Subcommand } from '../../src/interactions/types.js';
import {
  type BlackjackState,
  canDouble,
  cardLabel,
  handValue,
  isNatural,
} from '../../utils/games/houseGames/blackjack/rules.js';
import { GAMES_MESSAGES } from '../../utils/games/messages.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { parseOptions } from '../options.js';
import { BET_OPTION, betSchema, fairnessFooter, resultLine } from './bet.js';

/**
 * A press carries the round and the press count its message showed; the hand itself lives in
 * MongoDB, so a press on the message after a restart continues the same hand.
 */
export const blackjackButton = defineComponent('games.bj', {
  round: z.string().regex(/^[\w-]{1,40}$/),
  action: z.enum(['hit', 'stand', 'double']),
  step: z.coerce.number().int().min(0).max(100),
});

const TABLE_GREEN = 0x2e7d4f;

export const blackjackCommand: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(GAMES_MESSAGES, 'blackjack.command'),
    options: [BET_OPTION],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { bet } = parseOptions(z.object({ bet: betSchema }), invocation);
    const round = await deps.services.games.startBlackjack({
      roundId: invocation.id,
      userId: actor.id,
      bet,
      channelId: invocation.channelId ?? null,
      locale: i18n.locale,
    });
    // The hand's message is what the timer edits if the member walks away without pressing.
    return {
      ...handReply(round, i18n),
      onSent: ({ messageId }) => deps.services.games.rememberMessage(round, messageId),
    };
  },
};

export const blackjackButtonHandler = defineComponentHandler(blackjackButton, {
  async run({ deps, actor, invocation, i18n }, { round, action, step }) {
    const now = await deps.services.games.blackjack(round, actor.id, action, step);
    // Only the member's own press tells which message is the hand's (a timer may edit it later).
    await deps.services.games.rememberMessage(now, invocation.messageId);
    return { ...handReply(now, i18n), update: true };
  },
});

/** How a finished hand ended, in the game's words: bust, the dealer's bust, blackjack, or who is higher. */
export function verdict(hand: BlackjackState, i18n: Translator): string {
  const you = handValue(hand.player).total;
  const dealer = handValue(hand.dealer).total;
  if (you > 21) return i18n.t('games:blackjack.verdict.bust');
  if (isNatural(hand.player) && !isNatural(hand.dealer)) return i18n.t('games:blackjack.verdict.natural');
  if (dealer > 21) return i18n.t('games:blackjack.verdict.dealerBust');
  const key = you > dealer ? 'higher' : you < dealer ? 'lower' : 'tie';
  return i18n.t(`games:blackjack.verdict.${key}`, { you, dealer });
}

/** The table: the member's cards, the dealer's (one hidden while the hand is on), and the buttons. */
export function handReply(round: RoundDoc, i18n: Translator): Reply {
  const hand = round.hand;
  if (!hand)
    return {
      content:
        round.status === 'refunded'
          ? i18n.t('games:round.refunded', { stake: i18n.cookies(round.bet) })
          : i18n.t('games:round.pending'),
      buttons: [],
    };
  const open = round.status === 'playing' && hand.phase === 'playing';
  const player = `${hand.player.map(cardLabel).join(' ')} (${handValue(hand.player).total})`;
  const dealer = open
    ? `${cardLabel(hand.dealer[0] as number)} 🂠`
    : `${hand.dealer.map(cardLabel).join(' ')} (${handValue(hand.dealer).total})`;
  const lines = [
    i18n.t('games:blackjack.you', { cards: player }),
    i18n.t('games:blackjack.dealer', { cards: dealer }),
    i18n.t('games:blackjack.bet', { bet: i18n.cookies(round.bet), doubled: hand.doubled ? ' ×2' : '' }),
  ];
  if (round.timedOut) lines.push(i18n.t('games:blackjack.timedOut', { total: handValue(hand.player).total }));
  if (round.status === 'settled') lines.push(verdict(hand, i18n), resultLine(round, i18n));
  else if (!open) lines.push(i18n.t('games:round.pending'));
  const button = (action: 'hit' | 'stand' | 'double', style: ButtonSpec['style']): ButtonSpec => ({
    customId: blackjackButton.build({ round: round._id, action, step: round.step }),
    label: i18n.t(`games:blackjack.${action}`),
    style,
  });
  return {
    embeds: [
      {
        title: i18n.t('games:blackjack.title'),
        color: TABLE_GREEN,
        description: lines.join('\n'),
        footer: fairnessFooter(round, i18n),
      },
    ],
    buttons: open
      ? [
          button('hit', 'primary'),
          button('stand', 'secondary'),
          ...(canDouble(hand) ? [button('double', 'success')] : []),
        ]
      : [],
  };
}
