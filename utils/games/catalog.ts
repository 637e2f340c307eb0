import { type FairnessInput, roundFloats } from './fairness.js';
import type { GameName, RoundDoc } from './roundStore.js';
import {
  BLACKJACK_MAX_MULTIPLIER,
  BLACKJACK_SHUFFLE_FLOATS,
  type Card,
  cardLabel,
  shuffledDeck,
} from './rules/blackjack.js';
import { type CoinSide, coinflip } from './rules/coinflip.js';
import { dice } from './rules/dice.js';
import type { Played } from './rules/game.js';
import { slots } from './rules/slots.js';

export type InstantGameName = Exclude<GameName, 'blackjack'>;

/** The largest payout of a round as a multiple of its bet (what the vault must cover). */
export function maxMultiplier(game: GameName, params: Record<string, string | number>): number {
  switch (game) {
    case 'coinflip':
      return coinflip.maxMultiplier({ side: params.side as CoinSide });
    case 'dice':
      return dice.maxMultiplier({ target: Number(params.target) });
    case 'slots':
      return slots.maxMultiplier({});
    case 'blackjack':
      return BLACKJACK_MAX_MULTIPLIER;
  }
}

/** An instant game's result from the round's seeds: the same seeds always give the same result. */
export function playInstant(
  game: InstantGameName,
  seeds: FairnessInput,
  bet: number,
  params: Record<string, string | number>,
): Played<Record<string, unknown>> {
  switch (game) {
    case 'coinflip':
      return coinflip.play(floatsFor(seeds, coinflip.floatsNeeded), bet, { side: params.side as CoinSide });
    case 'dice':
      return dice.play(floatsFor(seeds, dice.floatsNeeded), bet, { target: Number(params.target) });
    case 'slots':
      return slots.play(floatsFor(seeds, slots.floatsNeeded), bet, {});
  }
}

/** A blackjack round's deck from its seeds. */
export function blackjackDeck(seeds: FairnessInput): Card[] {
  return shuffledDeck(floatsFor(seeds, BLACKJACK_SHUFFLE_FLOATS));
}

function floatsFor(seeds: FairnessInput, count: number): number[] {
  return roundFloats(seeds.serverSeed, seeds.memberSeed, seeds.nonce, count);
}

/** What the seeds alone decide, as text: an instant game's outcome, or a blackjack hand's shuffled deck. */
export function recompute(round: Pick<RoundDoc, 'game' | 'bet' | 'params'>, seeds: FairnessInput): string {
  if (round.game === 'blackjack') return blackjackDeck(seeds).map(cardLabel).join(' ');
  return JSON.stringify(playInstant(round.game, seeds, round.bet, round.params).outcome);
}

/** What the round recorded, in the same form as `recompute`. */
export function recordedResult(round: RoundDoc): string | null {
  if (round.game === 'blackjack') return round.hand ? round.hand.deck.map(cardLabel).join(' ') : null;
  return round.outcome ? JSON.stringify(round.outcome) : null;
}
