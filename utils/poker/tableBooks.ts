import { chipsInHand } from './engine.js';
import { tournamentChipProblems } from './sitAndGo.js';
import type { PendingMove, TableDoc } from './tableStore.js';

/*
 * A table's books, pure: where its chips are, and what a Cookie move that went through does
 * to them. The service persists what these return, one guarded update at a time.
 */

/**
 * Where a table's chips are, by the rule that conserves them: stacks + chips in the hand + cash-outs and
 * rake on their way out = bought in − cashed out − raked. Empty when it holds.
 */
export function chipProblems(t: TableDoc): string[] {
  if (t.sng) return tournamentChipProblems(t, t.sng);
  const stacks = t.game.seats.reduce((n, s) => n + (s?.stack ?? 0), 0);
  const leaving = t.pending
    .filter((m) => m.kind !== 'buyin' && m.state === 'applying')
    .reduce((n, m) => n + m.amount, 0);
  const held = stacks + chipsInHand(t.game.hand) + leaving;
  const owed = t.chips.in - t.chips.out - t.chips.rake;
  return held === owed
    ? []
    : [
        `poker table ${t._id}: stacks ${stacks} + hand ${chipsInHand(t.game.hand)} + leaving ${leaving} = ${held}, but in ${t.chips.in} − out ${t.chips.out} − rake ${t.chips.rake} = ${owed}`,
      ];
}

/**
 * The table once a move's Cookies moved: a buy-in's chips on its seat (at a tournament, the
 * starting stack), a cash-out, prize or rake counted out.
 */
export function absorbMove(t: TableDoc, move: PendingMove): TableDoc {
  const game = structuredClone(t.game);
  const chips = { ...t.chips };
  let sng = t.sng;
  if (move.kind === 'buyin') {
    const seat = game.seats[move.seat];
    const bought = sng ? sng.stack : move.amount;
    // The sitting numbers this seat's cash-out, so the next member on the seat gets its own id.
    game.seats[move.seat] = {
      userId: move.userId,
      stack: (seat?.userId === move.userId ? seat.stack : 0) + bought,
      sitting: move.sitting,
    };
    chips.in += move.amount;
    if (sng) sng = { ...sng, issued: sng.issued + bought };
  } else if (move.kind === 'rake') chips.rake += move.amount;
  else chips.out += move.amount;
  return { ...withoutMove(t, move.op), game, chips, ...(sng ? { sng } : {}) };
}

/** The table without a move (the store unsets `pending` when it empties). */
export function withoutMove(t: TableDoc, op: string): TableDoc {
  return { ...t, pending: t.pending.filter((m) => m.op !== op) };
}
