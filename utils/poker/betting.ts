import { pokerError } from './errors.js';
import {
  clone,
  commit,
  type Game,
  type Hand,
  type Legal,
  nextOf,
  type PokerAction,
  player,
  seatOf,
} from './game.js';
import { advanceIfNobodyToAct, canAct, firstToAct } from './streets.js';

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
      hand.log.push({ what: 'fold', userId: name, ...(action.timedOut ? { timedOut: true } : {}) });
      break;
    case 'check':
      if (!legal.canCheck)
        throw pokerError('cannot check facing a bet', 'poker:errors.cannotCheck', { toCall: legal.toCall });
      hand.log.push({ what: 'check', userId: name, ...(action.timedOut ? { timedOut: true } : {}) });
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
  hand.toAct = firstToAct(
    hand,
    nextOf(
      hand.players.map((x) => x.seat),
      seat,
    ),
  );
  return advanceIfNobodyToAct(g);
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
  return advanceIfNobodyToAct(g);
}
