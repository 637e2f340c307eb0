import { z } from 'zod';
import type { FairnessInput } from '../../fairness.js';
import { floatsFor } from '../floats.js';
import type { HandHouseGame } from '../houseGame.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };
import {
  act,
  BLACKJACK_MAX_MULTIPLIER,
  BLACKJACK_SHUFFLE_FLOATS,
  basicStrategy,
  blackjackPayout,
  type Card,
  cardLabel,
  deal,
  shuffledDeck,
} from './rules.js';

/** A blackjack round's deck from its seeds. */
export function blackjackDeck(seeds: FairnessInput): Card[] {
  return shuffledDeck(floatsFor(seeds, BLACKJACK_SHUFFLE_FLOATS));
}

/**
 * Blackjack against the dealer. A hand has turns, so it brings its own service flow
 * (utils/games/playBlackjack.ts), subcommand and buttons (commands/games/blackjack.ts).
 */
export const blackjackGame = {
  name: 'blackjack',
  kind: 'hand',
  messages: { en, de },
  params: z.object({}),
  maxMultiplier: () => BLACKJACK_MAX_MULTIPLIER,
  // Its seeds decide the shuffled deck; the member's presses decide the rest.
  recompute: (seeds) => blackjackDeck(seeds).map(cardLabel).join(' '),
  recorded: (round) => (round.hand ? round.hand.deck.map(cardLabel).join(' ') : null),
  // The simulation plays basic strategy.
  simulate: (seeds, bet) => {
    let hand = deal(blackjackDeck(seeds));
    while (hand.phase === 'playing') hand = act(hand, basicStrategy(hand));
    return { staked: hand.doubled ? bet * 2 : bet, paid: blackjackPayout(hand, bet) };
  },
  edgeCases: [
    {
      label: 'blackjack (basic strategy)',
      params: {},
      documented: 0.007,
      tolerance: 0.015,
      rounds: 100_000,
    },
  ],
  vaultQuote: {},
  simParams: () => ({}),
} as const satisfies HandHouseGame<'blackjack'>;
