import type { Card } from './cards.js';

/*
 * A game's state as it is persisted after every action, and the small reads and writes of it
 * every rule uses.
 */

export const MAX_SEATS = 9;

/** A seat at the table; chips not in the current hand are in `stack`. */
export interface Seat {
  userId: string;
  stack: number;
  /** Which sitting at this seat this is (numbers its buy-in and cash-out operations). */
  sitting?: number;
  /**
   * A tournament player whose turn clock ran out: the table checks or folds for them within
   * seconds (`AWAY_TURN_MS`) until they act again or press I'm back.
   */
  away?: boolean;
}

export interface HandPlayer {
  seat: number;
  userId: string;
  hole: Card[];
  /** Chips put in on this street / in the whole hand. */
  committed: number;
  total: number;
  folded: boolean;
  allIn: boolean;
  /** Has acted since the last full raise. */
  acted: boolean;
  /** May still raise (false after an all-in raise too small to reopen the betting). */
  mayRaise: boolean;
  /** The stack they were dealt in with, before the blinds (the hand's record starts from it). */
  start?: number;
}

export type Street = 'preflop' | 'flop' | 'turn' | 'river' | 'done';

export interface PotResult {
  amount: number;
  eligible: number[];
  winners: number[];
  /** What each winner got from this pot, by seat. */
  shares: Record<string, number>;
}

export interface HandResult {
  pots: PotResult[];
  rake: number;
  /** Showdown hands, by seat (empty when everyone else folded). */
  shown: { seat: number; cards: Card[]; strength: number }[];
}

export interface Hand {
  number: number;
  deck: Card[];
  board: Card[];
  button: number;
  smallBlindSeat: number;
  bigBlindSeat: number;
  players: HandPlayer[];
  /** The players this hand left without chips: they stood up when it ended. */
  out?: string[];
  street: Street;
  currentBet: number;
  /** The size of the last full bet or raise: the smallest raise allowed now. */
  minRaise: number;
  toAct: number | null;
  /** Every action of the hand, in order (the board words the last ones in the reader's language). */
  log: LogEntry[];
  result?: HandResult;
  /** A hand called off: what each seat still in it got back, by seat, and what each had put in. */
  returned?: Record<string, { put: number; back: number }>;
  /** The seeds its deck was shuffled from (`/poker verify`); absent on a deck tests chose. */
  fairness?: HandFairness;
}

/** A dealt player's client seed, as the hand's deck was shuffled with it. */
export interface ClientSeed {
  seat: number;
  userId: string;
  seed: string;
}

/** What makes a hand checkable: its deck is a function of these (utils/poker/handDeck.ts). */
export interface HandFairness {
  /** `<table>#<n>`: the hand's id, as the board shows it and `/poker verify hand:` takes it. */
  handId: string;
  /** SHA-256 of the server seed: the board showed it before the deal. */
  serverSeedHash: string;
  /**
   * The server seed. Secret while the hand is in play, as the deck is; revealed once the hand
   * has ended (`street` is `done`).
   */
  serverSeed: string;
  /** The dealt players' client seeds, in seat order. */
  clientSeeds: ClientSeed[];
}

/** One line of a hand's history. */
export type LogEntry =
  | { what: 'blinds'; small: number; big: number }
  | { what: 'fold' | 'check'; userId: string; timedOut?: boolean }
  | { what: 'call' | 'bet' | 'raise'; userId: string; amount: number; allIn: boolean }
  | { what: 'street'; street: Street; board: Card[] }
  | { what: 'off' };

export interface Game {
  seats: (Seat | null)[];
  button: number;
  smallBlind: number;
  bigBlind: number;
  rakePct: number;
  rakeCap: number;
  hand: Hand | null;
  handsPlayed: number;
  /** The hand before this one, as the board still shows it: its result and the cards shown. */
  previous?: Hand;
}

/** `timedOut`: the turn clock ran out and the table checked or folded for the player. */
export type PokerAction =
  | { type: 'fold'; timedOut?: boolean }
  | { type: 'check'; timedOut?: boolean }
  | { type: 'call' }
  | { type: 'raise'; to: number };

export interface Legal {
  toCall: number;
  canCheck: boolean;
  callAmount: number;
  canRaise: boolean;
  minRaiseTo: number;
  maxRaiseTo: number;
}

/** Seats that can play a hand (a player with chips), in seat order. */
export function playableSeats(game: Pick<Game, 'seats'>): number[] {
  return game.seats.flatMap((s, i) => (s && s.stack > 0 ? [i] : []));
}

export function nextOf(seats: number[], after: number): number {
  return seats.find((s) => s > after) ?? (seats[0] as number);
}

export function player(hand: Hand, seat: number): HandPlayer {
  const p = hand.players.find((x) => x.seat === seat);
  if (!p) throw new Error(`seat ${seat} is not in hand ${hand.number}`);
  return p;
}

export function seatOf(game: Game, seat: number): Seat {
  const s = game.seats[seat];
  if (!s) throw new Error(`seat ${seat} is empty`);
  return s;
}

/** Moves chips from a seat's stack into the hand (all-in when the stack runs out). */
export function commit(game: Game, p: HandPlayer, amount: number): void {
  const seat = seatOf(game, p.seat);
  const paid = Math.min(amount, seat.stack);
  seat.stack -= paid;
  p.committed += paid;
  p.total += paid;
  if (seat.stack === 0) p.allIn = true;
}

/** The hand's players in seat order from the button's left: who gets odd chips first. */
export function fromButtonsLeft(hand: Hand): HandPlayer[] {
  return [
    ...hand.players.filter((p) => p.seat > hand.button),
    ...hand.players.filter((p) => p.seat <= hand.button),
  ];
}

export function clone(game: Game): Game {
  return structuredClone(game);
}
