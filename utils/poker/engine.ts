import { compare, evaluate } from '@poker-apprentice/hand-evaluator';
import { AppError } from '../../src/errors.js';

/**
 * No-limit Texas Hold'em as pure functions of a persisted state: each press is a function from
 * one state to the next, so a hand can be stored after every action, reloaded after a
 * restart and continued. Hand ranking is @poker-apprentice/hand-evaluator's. The rules this
 * follows, and the ones it chooses, are in COOKIE_LOGIC.md ("Poker").
 */

/** A card as the evaluator writes it: rank (`2`–`9`, `T`, `J`, `Q`, `K`, `A`) then suit (`s h d c`). */
export type Card = string;
/** The evaluator's own (literal) card type; our cards are always of that form. */
type EvaluatorCard = Parameters<typeof evaluate>[0]['holeCards'][number];
const asEvaluatorCards = (cards: Card[]) => cards as EvaluatorCard[];

export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
export const SUITS = ['s', 'h', 'd', 'c'];
export const FULL_DECK: readonly Card[] = SUITS.flatMap((s) => RANKS.map((r) => `${r}${s}`));
export const MAX_SEATS = 9;

/** A seat at the table; chips not in the current hand are in `stack`. */
export interface Seat {
  userId: string;
  stack: number;
  /** Which sitting at this seat this is (numbers its buy-in and cash-out operations). */
  sitting?: number;
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
  street: Street;
  currentBet: number;
  /** The size of the last full bet or raise: the smallest raise allowed now. */
  minRaise: number;
  toAct: number | null;
  /** The last actions, newest last (the board words them in the reader's language). */
  log: LogEntry[];
  result?: HandResult;
}

/** One line of a hand's history. */
export type LogEntry =
  | { what: 'blinds'; small: number; big: number }
  | { what: 'fold' | 'check'; userId: string }
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
}

export type PokerAction =
  | { type: 'fold' }
  | { type: 'check' }
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

const LOG_KEPT = 6;

function pokerError(
  detail: string,
  messageKey: string,
  context: Record<string, number | string> = {},
): AppError {
  return new AppError('INVALID_INPUT', detail, { ...context, messageKey });
}

/** Seats that can play a hand (a player with chips), in seat order. */
export function playableSeats(game: Pick<Game, 'seats'>): number[] {
  return game.seats.flatMap((s, i) => (s && s.stack > 0 ? [i] : []));
}

function nextOf(seats: number[], after: number): number {
  return seats.find((s) => s > after) ?? (seats[0] as number);
}

function player(hand: Hand, seat: number): HandPlayer {
  const p = hand.players.find((x) => x.seat === seat);
  if (!p) throw new Error(`seat ${seat} is not in hand ${hand.number}`);
  return p;
}

function seatOf(game: Game, seat: number): Seat {
  const s = game.seats[seat];
  if (!s) throw new Error(`seat ${seat} is empty`);
  return s;
}

/** Moves chips from a seat's stack into the hand (all-in when the stack runs out). */
function commit(game: Game, p: HandPlayer, amount: number): void {
  const seat = seatOf(game, p.seat);
  const paid = Math.min(amount, seat.stack);
  seat.stack -= paid;
  p.committed += paid;
  p.total += paid;
  if (seat.stack === 0) p.allIn = true;
}

/** The hand's players in seat order from the button's left: who gets odd chips first. */
function fromButtonsLeft(hand: Hand): HandPlayer[] {
  return [
    ...hand.players.filter((p) => p.seat > hand.button),
    ...hand.players.filter((p) => p.seat <= hand.button),
  ];
}

function clone(game: Game): Game {
  return structuredClone(game);
}

/**
 * Starts the next hand with `deck` (a shuffled 52-card deck): moves the button, posts the
 * blinds (heads-up: the button posts the small blind and acts first before the flop), deals.
 */
export function startHand(game: Game, deck: Card[]): Game {
  const g = clone(game);
  const seats = playableSeats(g);
  if (seats.length < 2) throw pokerError('a hand needs two players with chips', 'poker:errors.needTwo');
  const button = nextOf(seats, g.button);
  const headsUp = seats.length === 2;
  const sb = headsUp ? button : nextOf(seats, button);
  const bb = nextOf(seats, sb);
  const remaining = [...deck];
  const players: HandPlayer[] = seats.map((seat) => ({
    seat,
    userId: seatOf(g, seat).userId,
    hole: [],
    committed: 0,
    total: 0,
    folded: false,
    allIn: false,
    acted: false,
    mayRaise: true,
  }));
  for (let round = 0; round < 2; round++) {
    for (const p of players) p.hole.push(remaining.shift() as Card);
  }
  const hand: Hand = {
    number: g.handsPlayed + 1,
    deck: remaining,
    board: [],
    button,
    smallBlindSeat: sb,
    bigBlindSeat: bb,
    players,
    street: 'preflop',
    currentBet: g.bigBlind,
    minRaise: g.bigBlind,
    toAct: null,
    log: [],
  };
  g.button = button;
  g.hand = hand;
  g.handsPlayed += 1;
  commit(g, player(hand, sb), g.smallBlind);
  commit(g, player(hand, bb), g.bigBlind);
  hand.log.push({ what: 'blinds', small: g.smallBlind, big: g.bigBlind });
  hand.toAct = firstToAct(hand, headsUp ? sb : nextOf(seats, bb));
  return advanceIfSettled(g);
}

/** The first player from `from` on (in seat order, wrapping) who can still act. */
function firstToAct(hand: Hand, from: number): number | null {
  const order = [...hand.players.filter((p) => p.seat >= from), ...hand.players.filter((p) => p.seat < from)];
  return order.find((p) => canAct(hand, p))?.seat ?? null;
}

function canAct(hand: Hand, p: HandPlayer): boolean {
  return !p.folded && !p.allIn && (!p.acted || p.committed < hand.currentBet);
}

/** What the player to act may do. */
export function legalActions(game: Game, seat: number): Legal {
  const hand = game.hand;
  if (!hand) throw new Error('no hand in play');
  const p = player(hand, seat);
  const stack = seatOf(game, seat).stack;
  const toCall = Math.max(0, hand.currentBet - p.committed);
  const othersCanBet = hand.players.some((o) => o.seat !== seat && !o.folded && !o.allIn);
  const maxRaiseTo = p.committed + stack;
  const minRaiseTo = Math.min(maxRaiseTo, hand.currentBet + hand.minRaise);
  return {
    toCall,
    canCheck: toCall === 0,
    callAmount: Math.min(toCall, stack),
    canRaise: p.mayRaise && othersCanBet && maxRaiseTo > hand.currentBet,
    minRaiseTo,
    maxRaiseTo,
  };
}

/** Applies one action of the player to act; a wrong turn or an illegal size is refused. */
export function act(game: Game, seat: number, action: PokerAction): Game {
  const g = clone(game);
  const hand = g.hand;
  if (!hand || hand.street === 'done') throw pokerError('no hand in play', 'poker:errors.noHand');
  if (hand.toAct !== seat) throw pokerError(`it is seat ${hand.toAct}'s turn`, 'poker:errors.notYourTurn');
  const p = player(hand, seat);
  const legal = legalActions(g, seat);
  const name = p.userId;
  switch (action.type) {
    case 'fold':
      p.folded = true;
      hand.log.push({ what: 'fold', userId: name });
      break;
    case 'check':
      if (!legal.canCheck)
        throw pokerError('cannot check facing a bet', 'poker:errors.cannotCheck', { toCall: legal.toCall });
      hand.log.push({ what: 'check', userId: name });
      break;
    case 'call':
      if (legal.toCall === 0) {
        hand.log.push({ what: 'check', userId: name });
        break;
      }
      commit(g, p, legal.callAmount);
      hand.log.push({ what: 'call', userId: name, amount: legal.callAmount, allIn: p.allIn });
      break;
    case 'raise': {
      if (!legal.canRaise) throw pokerError('cannot raise now', 'poker:errors.cannotRaise');
      const to = action.to;
      if (
        !Number.isInteger(to) ||
        to > legal.maxRaiseTo ||
        (to < legal.minRaiseTo && to !== legal.maxRaiseTo)
      ) {
        throw pokerError(
          `raise to ${to} outside ${legal.minRaiseTo}..${legal.maxRaiseTo}`,
          'poker:errors.raiseSize',
          {
            to,
            min: legal.minRaiseTo,
            max: legal.maxRaiseTo,
          },
        );
      }
      const size = to - hand.currentBet;
      commit(g, p, to - p.committed);
      const full = size >= hand.minRaise;
      for (const o of hand.players) {
        if (o.seat === seat || o.folded || o.allIn) continue;
        if (full) {
          o.acted = false;
          o.mayRaise = true;
        } else if (o.acted) {
          // An all-in too small to be a raise: those who acted may call or fold, not raise.
          o.acted = false;
          o.mayRaise = false;
        }
      }
      if (full) hand.minRaise = size;
      hand.log.push({
        what: hand.currentBet === 0 ? 'bet' : 'raise',
        userId: name,
        amount: to,
        allIn: p.allIn,
      });
      hand.currentBet = to;
      break;
    }
  }
  p.acted = true;
  if (hand.log.length > LOG_KEPT) hand.log.splice(0, hand.log.length - LOG_KEPT);
  hand.toAct = firstToAct(
    hand,
    nextOf(
      hand.players.map((x) => x.seat),
      seat,
    ),
  );
  return advanceIfSettled(g);
}

/** Ends the street, the hand, or runs the board out, when nobody is left to act. */
function advanceIfSettled(g: Game): Game {
  const hand = g.hand as Hand;
  const live = hand.players.filter((p) => !p.folded);
  if (live.length === 1) return finish(g, [], false);
  if (hand.toAct !== null) return g;
  const canStillBet = live.filter((p) => !p.allIn).length;
  while (hand.street !== 'river') {
    nextStreet(hand);
    if (canStillBet >= 2) {
      hand.toAct = firstToAct(
        hand,
        nextOf(
          hand.players.map((p) => p.seat),
          hand.button,
        ),
      );
      if (hand.toAct !== null) return g;
    }
  }
  return showdown(g);
}

function nextStreet(hand: Hand): void {
  const deal = (n: number) => {
    hand.deck.shift(); // the burn card
    for (let i = 0; i < n; i++) hand.board.push(hand.deck.shift() as Card);
  };
  hand.street = hand.street === 'preflop' ? 'flop' : hand.street === 'flop' ? 'turn' : 'river';
  deal(hand.street === 'flop' ? 3 : 1);
  hand.currentBet = 0;
  for (const p of hand.players) {
    p.committed = 0;
    p.acted = false;
    p.mayRaise = true;
  }
  hand.log.push({ what: 'street', street: hand.street, board: [...hand.board] });
}

function showdown(g: Game): Game {
  const hand = g.hand as Hand;
  const shown = hand.players
    .filter((p) => !p.folded)
    .map((p) => {
      const best = evaluate({
        holeCards: asEvaluatorCards(p.hole),
        communityCards: asEvaluatorCards(hand.board),
      });
      return { seat: p.seat, cards: best.hand as Card[], strength: best.strength as number, evaluated: best };
    });
  return finish(
    g,
    shown.map(({ evaluated: _, ...s }) => s),
    true,
    (a, b) => {
      const x = shown.find((s) => s.seat === a)?.evaluated;
      const y = shown.find((s) => s.seat === b)?.evaluated;
      return x && y ? compare(x, y) : 0;
    },
  );
}

/**
 * Splits the chips into the main pot and side pots by the players' contributions, takes the
 * rake (only when a flop was dealt, from the pots in order, never from a bet nobody called),
 * and pays each pot to its best eligible hands. Odd chips of a split go one each to the
 * winners in seat order starting left of the button.
 */
function finish(
  g: Game,
  shown: HandResult['shown'],
  showdownReached: boolean,
  order?: (a: number, b: number) => number,
): Game {
  const hand = g.hand as Hand;
  const live = hand.players.filter((p) => !p.folded);
  const levels = [...new Set(live.map((p) => p.total))].sort((a, b) => a - b);
  const pots: PotResult[] = [];
  let previous = 0;
  for (const level of levels) {
    const amount = hand.players.reduce(
      (sum, p) => sum + Math.min(p.total, level) - Math.min(p.total, previous),
      0,
    );
    const eligible = live.filter((p) => p.total >= level).map((p) => p.seat);
    if (amount > 0) pots.push({ amount, eligible, winners: [], shares: {} });
    previous = level;
  }
  // Chips folded players put in above the highest live level go to the last pot; when no live
  // player put a chip in (both blinds left before the button acted) they are the only pot.
  const leftover = hand.players.reduce((sum, p) => sum + Math.max(0, p.total - previous), 0);
  const last = pots.at(-1);
  if (leftover > 0 && last) last.amount += leftover;
  else if (leftover > 0)
    pots.push({ amount: leftover, eligible: live.map((p) => p.seat), winners: [], shares: {} });

  let rake = 0;
  if (hand.board.length >= 3 && g.rakePct > 0) {
    const contested = pots.filter((pot) => pot.eligible.length > 1);
    const total = contested.reduce((sum, pot) => sum + pot.amount, 0);
    let due = Math.min(g.rakeCap, Math.floor((total * g.rakePct) / 100));
    for (const pot of contested) {
      const take = Math.min(due, pot.amount);
      pot.amount -= take;
      rake += take;
      due -= take;
    }
  }

  const seatsFromButton = fromButtonsLeft(hand).map((p) => p.seat);
  for (const pot of pots) {
    const ranked = [...pot.eligible].sort(order ?? (() => 0));
    const best = ranked[0] as number;
    pot.winners = order ? ranked.filter((s) => order(s, best) === 0) : [best];
    const winners = seatsFromButton.filter((s) => pot.winners.includes(s));
    const share = Math.floor(pot.amount / winners.length);
    let odd = pot.amount - share * winners.length;
    for (const seat of winners) {
      const won = share + (odd > 0 ? 1 : 0);
      if (odd > 0) odd--;
      pot.shares[String(seat)] = won;
      seatOf(g, seat).stack += won;
    }
  }
  hand.result = { pots, rake, shown: showdownReached ? shown : [] };
  hand.street = 'done';
  hand.toAct = null;
  return g;
}

/**
 * A player leaving (or timed out of) the hand out of turn: folded at once; if it was their
 * turn, the hand moves on as after a fold.
 */
export function foldOut(game: Game, seat: number): Game {
  const hand = game.hand;
  if (!hand || hand.street === 'done') return game;
  const p = hand.players.find((x) => x.seat === seat);
  if (!p || p.folded) return game;
  if (hand.toAct === seat) return act(game, seat, { type: 'fold' });
  const g = clone(game);
  const h = g.hand as Hand;
  player(h, seat).folded = true;
  h.log.push({ what: 'fold', userId: p.userId });
  if (h.toAct !== null && !canAct(h, player(h, h.toAct))) h.toAct = firstToAct(h, h.toAct);
  return advanceIfSettled(g);
}

/**
 * A hand called off (the table closes mid-hand): every chip put in goes back to its player,
 * if that player is still in the seat. A player who left folded and took their stack: what
 * they had put in is forfeit, and is shared by the players still in the hand (there are at
 * least two, or the hand would be over), odd chips one each from the button's left.
 */
export function cancelHand(game: Game): Game {
  const g = clone(game);
  const hand = g.hand;
  if (hand && hand.street !== 'done') {
    const stillSeated = (p: HandPlayer) => g.seats[p.seat]?.userId === p.userId;
    const forfeit = hand.players.filter((p) => !stillSeated(p)).reduce((sum, p) => sum + p.total, 0);
    for (const p of hand.players.filter(stillSeated)) seatOf(g, p.seat).stack += p.total;
    const live = fromButtonsLeft(hand).filter((p) => !p.folded && stillSeated(p));
    live.forEach((p, i) => {
      const share = Math.floor(forfeit / live.length) + (i < forfeit % live.length ? 1 : 0);
      seatOf(g, p.seat).stack += share;
    });
    for (const p of hand.players) {
      p.total = 0;
      p.committed = 0;
    }
    hand.street = 'done';
    hand.toAct = null;
    hand.log.push({ what: 'off' });
  }
  return g;
}

/** Chips in play in the hand (committed, not yet paid out). */
export function chipsInHand(hand: Hand | null): number {
  if (!hand || hand.street === 'done') return 0;
  return hand.players.reduce((sum, p) => sum + p.total, 0);
}
