import type { Card } from './cards.js';
import { pokerError } from './errors.js';
import {
  clone,
  commit,
  type Game,
  type Hand,
  type HandFairness,
  type HandPlayer,
  nextOf,
  playableSeats,
  player,
  seatOf,
} from './game.js';
import { advanceIfNobodyToAct, firstToAct } from './streets.js';

/**
 * Starts the next hand with `deck` (a shuffled 52-card deck, from the seeds in `fairness`):
 * moves the button, posts the blinds (heads-up: the button posts the small blind and acts
 * first before the flop), deals.
 */
export function startHand(game: Game, deck: Card[], fairness?: HandFairness): Game {
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
    start: seatOf(g, seat).stack,
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
    ...(fairness ? { fairness } : {}),
  };
  g.button = button;
  if (g.hand) g.previous = asShown(g.hand);
  g.hand = hand;
  g.handsPlayed += 1;
  commit(g, player(hand, sb), g.smallBlind);
  commit(g, player(hand, bb), g.bigBlind);
  hand.log.push({ what: 'blinds', small: g.smallBlind, big: g.bigBlind });
  hand.toAct = firstToAct(hand, headsUp ? sb : nextOf(seats, bb));
  return advanceIfNobodyToAct(g);
}

/** A finished hand as everyone may still see it: no deck, and only the hole cards shown down. */
function asShown(hand: Hand): Hand {
  const shown = new Set(hand.result?.shown.map((s) => s.seat));
  return {
    ...hand,
    deck: [],
    players: hand.players.map((p) => ({ ...p, hole: shown.has(p.seat) ? p.hole : [] })),
  };
}
