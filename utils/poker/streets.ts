import type { Card } from './cards.js';
import { type Game, type Hand, type HandPlayer, nextOf } from './game.js';
import { finish } from './pots.js';
import { showdown } from './showdown.js';

/*
 * Whose turn it is, and the hand moving on from street to street (the board dealt, the bets
 * cleared) until the showdown, when nobody is left to act.
 */

/** The first player from `from` on (in seat order, wrapping) who can still act. */
export function firstToAct(hand: Hand, from: number): number | null {
  const order = [...hand.players.filter((p) => p.seat >= from), ...hand.players.filter((p) => p.seat < from)];
  return order.find((p) => canAct(hand, p))?.seat ?? null;
}

export function canAct(hand: Hand, p: HandPlayer): boolean {
  return !p.folded && !p.allIn && (!p.acted || p.committed < hand.currentBet);
}

/** Ends the street, the hand, or runs the board out, when nobody is left to act. */
export function advanceIfNobodyToAct(g: Game): Game {
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
