/**
 * No-limit Texas Hold'em as pure functions of a persisted state: each press is a function from
 * one state to the next, so a hand can be stored after every action, reloaded after a
 * restart and continued. Hand ranking is @poker-apprentice/hand-evaluator's. The rules this
 * follows, and the ones it chooses, are in COOKIE_LOGIC.md ("Poker").
 */

// Its parts: the state (game.ts, cards.ts), dealing a hand (startHand.ts), the betting
// (betting.ts), turns and streets (streets.ts), the showdown (showdown.ts), and the pots, the
// rake and a hand called off (pots.ts).
export { act, foldOut, legalActions } from './betting.js';
export { type Card, FULL_DECK, RANKS, SUITS } from './cards.js';
export {
  type ClientSeed,
  type Game,
  type Hand,
  type HandFairness,
  type HandPlayer,
  type HandResult,
  type Legal,
  type LogEntry,
  MAX_SEATS,
  type PokerAction,
  type PotResult,
  playableSeats,
  type Seat,
  type Street,
} from './game.js';
export { cancelHand, chipsInHand } from './pots.js';
export { startHand } from './startHand.js';
