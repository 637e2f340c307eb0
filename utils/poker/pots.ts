import {
  clone,
  fromButtonsLeft,
  type Game,
  type Hand,
  type HandPlayer,
  type HandResult,
  type PotResult,
  seatOf,
} from './game.js';

/**
 * Splits the chips into the main pot and side pots by the players' contributions, takes the
 * rake (only when a flop was dealt, from the pots in order, never from a bet nobody called),
 * and pays each pot to its best eligible hands. Odd chips of a split go one each to the
 * winners in seat order starting left of the button.
 */
export function finish(
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
    // What each put in and got back, kept for the hand's record (the totals are cleared below).
    const returned: NonNullable<Hand['returned']> = {};
    for (const p of hand.players) returned[String(p.seat)] = { put: p.total, back: 0 };
    const giveBack = (p: HandPlayer, chips: number) => {
      seatOf(g, p.seat).stack += chips;
      (returned[String(p.seat)] as { back: number }).back += chips;
    };
    for (const p of hand.players.filter(stillSeated)) giveBack(p, p.total);
    const live = fromButtonsLeft(hand).filter((p) => !p.folded && stillSeated(p));
    live.forEach((p, i) => {
      giveBack(p, Math.floor(forfeit / live.length) + (i < forfeit % live.length ? 1 : 0));
    });
    hand.returned = returned;
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
