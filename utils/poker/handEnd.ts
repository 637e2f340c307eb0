import { bustsOf, isRunning } from './sitAndGo.js';
import type { TableDoc } from './tableStore.js';

/*
 * What the end of a hand does to its table, pure: the busted stand up, and a hand nobody played
 * counts towards the pause.
 */

/** Hands in a row with no member action after which a table stops dealing by itself. */
export const QUIET_HANDS = 2;

/**
 * A table between hands after `QUIET_HANDS` hands nobody played: it deals again only when
 * someone presses Deal. A tournament never pauses: its rising blinds end it.
 */
export function isPaused(t: TableDoc): boolean {
  const hand = t.game.hand;
  return (
    t.status === 'playing' &&
    !t.sng &&
    (!hand || hand.street === 'done') &&
    (t.quietHands ?? 0) >= QUIET_HANDS
  );
}

/**
 * `next`, the state in which `table`'s hand just ended: every seat left without chips is freed
 * (a stack of 0 has nothing to cash out; the hand names who stood up) unless a buy-in for it is
 * on its way, and the hand counts as quiet when no member acted since it was dealt. At a
 * tournament, who stood up is out, in the order `bustsOf` gives.
 */
export function endOfHand(table: TableDoc, next: TableDoc, byMember: boolean): TableDoc {
  const game = structuredClone(next.game);
  const buying = new Set(next.pending.filter((m) => m.kind === 'buyin').map((m) => m.seat));
  const out: string[] = [];
  game.seats = game.seats.map((s, i) => {
    if (!s || s.stack > 0 || buying.has(i)) return s;
    out.push(s.userId);
    return null;
  });
  if (game.hand && out.length > 0) game.hand.out = out;
  const dealtAt = table.dealtAt?.getTime();
  const acted = byMember || dealtAt === undefined || table.lastActionAt.getTime() > dealtAt;
  const sng =
    next.sng && isRunning(next) && game.hand && out.length > 0
      ? { ...next.sng, out: [...next.sng.out, ...bustsOf(game.hand, out)] }
      : next.sng;
  return { ...next, game, quietHands: acted ? 0 : (table.quietHands ?? 0) + 1, ...(sng ? { sng } : {}) };
}
