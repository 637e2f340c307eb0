import { createHash } from 'node:crypto';
import { roundFloats } from '../games/fairness.js';
import { shuffledDeck } from '../games/houseGames/blackjack/rules.js';
import { type Card, FULL_DECK } from './cards.js';

/**
 * A hand's deck is a pure function of its seeds, shuffled as the house games shuffle
 * (utils/games/fairness.ts): Fisher–Yates over the floats of HMAC-SHA256(server seed,
 * "<client seeds>:<hand number>:<block>"). The client seeds are the players' in seat order,
 * joined by commas (a client seed holds no comma), so every player's seed moves every card.
 */

/** What a hand's deck is computed from. */
export interface DeckSeeds {
  serverSeed: string;
  /** Each dealt player's client seed, in seat order. */
  clientSeeds: readonly string[];
  /** The table's hand number (1 for its first hand). */
  hand: number;
}

/**
 * A member's client seed until they choose one: derived from their id, but not the id itself, so
 * a forgotten member's id, replaced by its pseudonym everywhere, leaves their hands recomputable.
 */
export function defaultClientSeed(userId: string): string {
  return createHash('sha256').update(`poker-client-seed:${userId}`).digest('hex').slice(0, 16);
}

/** The text the HMAC reads as the member seed: the client seeds in seat order. */
export function joinedClientSeeds(clientSeeds: readonly string[]): string {
  return clientSeeds.join(',');
}

/** The 52 cards in the order they are dealt: hole cards round by round, then burn and board. */
export function handDeck(seeds: DeckSeeds): Card[] {
  const floats = roundFloats(
    seeds.serverSeed,
    joinedClientSeeds(seeds.clientSeeds),
    seeds.hand,
    FULL_DECK.length - 1,
  );
  return shuffledDeck(floats).map((i) => FULL_DECK[i] as Card);
}

/** The cards a deck deals `players` players (two rounds in seat order), and the board after its burns. */
export function dealtFrom(deck: readonly Card[], players: number): { holes: Card[][]; board: Card[] } {
  const holes = Array.from({ length: players }, (_, p) => [deck[p], deck[players + p]] as Card[]);
  const rest = deck.slice(2 * players);
  // Burn one before the flop, the turn and the river (streets.ts).
  const board = [rest[1], rest[2], rest[3], rest[5], rest[7]] as Card[];
  return { holes, board };
}
