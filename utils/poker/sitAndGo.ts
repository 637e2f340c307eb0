import { invalidInputText } from '../../src/errors.js';
import { chipsInHand } from './engine.js';
import type { Hand } from './game.js';
import { seatOf } from './tableSeats.js';
import type { PendingMove, TableDoc } from './tableStore.js';

/*
 * A sit-and-go, pure: a poker table whose chips are tournament chips, not Cookies. Each entrant
 * pays the same buy-in into the table's pot (the prize pool) and gets the same starting stack;
 * the blinds rise level by level; whoever loses every chip is out, and the last one with chips
 * wins. The pool is then paid out by place. The service persists what these return, one guarded
 * update at a time (pokerService.ts, tableMoves.ts).
 */

/** What the host chose when opening it. */
export interface SitAndGoRules {
  /** Cookies each entrant pays into the prize pool. */
  buyIn: number;
  /** Entrants it starts with by itself once registered (the host may start earlier, from two). */
  players: number;
  /** Tournament chips each entrant starts with. */
  stack: number;
  /** The first level's small blind (the big blind is twice it). */
  smallBlind: number;
  /** How long each blind level lasts. */
  levelS: number;
  /** The pool's share of each paid place, in percent, first place first (they sum to 100). */
  payouts: number[];
}

export interface SitAndGo extends SitAndGoRules {
  /** The first deal: the blind levels count from here. */
  startedAt?: Date;
  /** Who played, in seat order (fixed at the first deal). */
  entrants?: string[];
  /** Who is out, in the order they went out (the first out finishes last). */
  out: Bust[];
  /** Tournament chips handed out (a starting stack per registration) and taken out of play. */
  issued: number;
  retired: number;
  /** Once it ended: each paid place, its member and Cookies. */
  prizes?: Prize[];
}

/** A player out of the tournament: in which hand, and with what stack it was dealt. */
export interface Bust {
  userId: string;
  hand: number;
  /** Their stack at that hand's deal (who had more finishes higher). */
  stack: number;
  /** Gave up: never tied with anyone. */
  forfeit?: boolean;
}

/** A finishing place: tied players share it (and its prizes). */
export interface Place {
  place: number;
  userIds: string[];
}

export interface Prize {
  place: number;
  userId: string;
  amount: number;
}

/** The payouts a host may choose: one to three places, each share whole percent, in falling order. */
export const DEFAULT_PAYOUTS = [65, 35];

/**
 * The small blind of a level, as a multiple of the first: 1, 1.5, 2, 3, 4, 6, 8, 12, …: it
 * doubles every two levels, so a short stack must play within a few levels.
 */
export function levelBlinds(
  rules: Pick<SitAndGoRules, 'smallBlind'>,
  level: number,
): { small: number; big: number } {
  const factor = level % 2 === 0 ? 2 ** (level / 2) : 1.5 * 2 ** ((level - 1) / 2);
  const small = Math.round(rules.smallBlind * factor);
  return { small, big: small * 2 };
}

/**
 * The level in force at `now`: a function of the stored start, so a restart or a late timer
 * never leaves the blinds behind (the level timer only tells the table).
 */
export function levelAt(sng: SitAndGo, now: Date): number {
  if (!sng.startedAt) return 0;
  return Math.max(0, Math.floor((now.getTime() - sng.startedAt.getTime()) / (sng.levelS * 1000)));
}

/** When level `level` began (and `level + 1` begins when it ends). */
export function levelStart(sng: SitAndGo, level: number): Date {
  return new Date((sng.startedAt?.getTime() ?? 0) + level * sng.levelS * 1000);
}

export function hasStarted(t: TableDoc): boolean {
  return t.sng?.startedAt !== undefined;
}

/** A tournament dealing hands: no pause and no idle close; it ends when one player has every chip. */
export function isRunning(t: TableDoc): boolean {
  return hasStarted(t) && t.status !== 'closed';
}

/** Entrants registered or registering: the seats it has taken. */
export function registered(t: TableDoc): number {
  return t.game.seats.filter((s) => s !== null).length + t.pending.filter((m) => m.kind === 'buyin').length;
}

/**
 * The players a hand just put out, in the order they went out: the smaller stack at the deal
 * first. Equal stacks tie (`places`), whatever their order here.
 */
export function bustsOf(hand: Hand, out: string[]): Bust[] {
  return hand.players
    .filter((p) => out.includes(p.userId))
    .map((p) => ({ userId: p.userId, hand: hand.number, stack: p.start ?? 0 }))
    .sort((a, b) => a.stack - b.stack);
}

/** Whether two players out tie: out in the same hand, dealt the same stack, neither gave up. */
function tie(a: Bust, b: Bust): boolean {
  return !a.forfeit && !b.forfeit && a.hand === b.hand && a.stack === b.stack;
}

/**
 * Finishing places, first to last: the last player with chips, then the others in reverse order
 * of going out; players out in the same hand with the same stack share a place.
 */
export function places(sng: SitAndGo, winner: string | null): Place[] {
  const found: Place[] = winner ? [{ place: 1, userIds: [winner] }] : [];
  let taken = found.length;
  const out = [...sng.out].reverse();
  out.forEach((bust, i) => {
    const before = out[i - 1];
    const last = found.at(-1);
    if (before && last && tie(before, bust)) last.userIds.push(bust.userId);
    else found.push({ place: taken + 1, userIds: [bust.userId] });
    taken += 1;
  });
  return found;
}

/**
 * Each paid place's Cookies: the pool split by the payouts over the places that are paid (never
 * more than the entrants less one, so nobody gets their buy-in back for coming last). The
 * shares are renormalised to the places paid; whole Cookies, the rounding to first place, so
 * the prizes add up to the pool exactly.
 */
export function prizeAmounts(pool: number, payouts: number[], entrants: number): number[] {
  const paid = payouts.slice(0, Math.max(1, Math.min(payouts.length, entrants - 1)));
  const weight = paid.reduce((n, p) => n + p, 0);
  const amounts = paid.map((p) => Math.floor((pool * p) / weight));
  amounts[0] = (amounts[0] ?? 0) + pool - amounts.reduce((n, a) => n + a, 0);
  return amounts;
}

/**
 * Who gets what: each place's amount, and tied players the amounts of every place they share,
 * split evenly (the odd Cookies to the first of them as listed).
 */
export function prizesOf(finish: Place[], amounts: number[]): Prize[] {
  return finish.flatMap(({ place, userIds }) => {
    const share = amounts.slice(place - 1, place - 1 + userIds.length).reduce((n, a) => n + a, 0);
    const each = Math.floor(share / userIds.length);
    return userIds.flatMap((userId, i) => {
      const amount = each + (i < share - each * userIds.length ? 1 : 0);
      return amount > 0 ? [{ place, userId, amount }] : [];
    });
  });
}

/**
 * The tournament once `t`'s last hand left one player with chips: the winner's chips are taken
 * out of play, every seat is empty, the table closes, and each prize becomes a pending move
 * (`poker_prize:<table>:<n>`, n counting the prizes from first place) that the table's moves
 * pay from the pool.
 */
export function finished(t: TableDoc, now: Date): TableDoc {
  const sng = t.sng as SitAndGo;
  const winnerSeat = t.game.seats.find((s) => s !== null && s.stack > 0) ?? null;
  const finish = places(sng, winnerSeat?.userId ?? null);
  const entrants = finish.reduce((n, p) => n + p.userIds.length, 0);
  // The pool is what the pot holds once the refunds still on their way (an unregistration whose
  // Cookies have not moved yet) are paid: never the pot before them.
  const leaving = t.pending.filter((m) => m.kind !== 'buyin').reduce((n, m) => n + m.amount, 0);
  const pool = t.chips.in - t.chips.out - leaving;
  const prizes = prizesOf(finish, prizeAmounts(pool, sng.payouts, entrants));
  const moves = prizes.map<PendingMove>((p, i) => ({
    op: `poker_prize:${t._id}:${i + 1}`,
    kind: 'prize',
    seat: -1,
    userId: p.userId,
    amount: p.amount,
    sitting: 0,
    state: 'applying',
    at: now,
  }));
  return {
    ...t,
    status: 'closed',
    closedAt: now,
    game: { ...t.game, seats: t.game.seats.map(() => null) },
    sng: { ...sng, retired: sng.retired + (winnerSeat?.stack ?? 0), prizes },
    pending: [...t.pending, ...moves],
  };
}

/** Whether `t`'s hand just left a started tournament with one player holding chips. */
export function isDecided(t: TableDoc): boolean {
  const withChips = t.game.seats.filter((s) => s !== null && s.stack > 0).length;
  return isRunning(t) && withChips <= 1 && (t.game.hand === null || t.game.hand.street === 'done');
}

/**
 * A tournament's chips, by the rule that conserves them: stacks + chips in the hand = handed out
 * − taken out of play. Its Cookies are the table's `chips` (buy-ins in, refunds and prizes out),
 * which the pot check compares as at any table. Empty when it holds.
 */
export function tournamentChipProblems(t: TableDoc, sng: SitAndGo): string[] {
  const stacks = t.game.seats.reduce((n, s) => n + (s?.stack ?? 0), 0);
  const held = stacks + chipsInHand(t.game.hand);
  return held === sng.issued - sng.retired
    ? []
    : [
        `poker tournament ${t._id}: stacks ${stacks} + hand ${chipsInHand(t.game.hand)} = ${held}, but issued ${sng.issued} − retired ${sng.retired} = ${sng.issued - sng.retired}`,
      ];
}

/**
 * Why a tournament takes no registration now: it started, it is full, or the buy-in asked for
 * is not its own.
 */
export function refuseRegistration(table: TableDoc, userId: string, buyIn: number): void {
  const sng = table.sng as SitAndGo;
  if (hasStarted(table)) throw invalidInputText('registration is over', 'poker:errors.sngStarted');
  if (buyIn !== sng.buyIn) {
    throw invalidInputText(`buy-in ${buyIn}, not ${sng.buyIn}`, 'poker:errors.sngBuyIn', {
      buyIn: sng.buyIn,
      asked: buyIn,
    });
  }
  if (registered(table) >= sng.players && seatOf(table, userId) === null) {
    throw invalidInputText('the tournament is full', 'poker:errors.sngFull', { players: sng.players });
  }
}

/** A tournament about to deal: the first deal fixes who plays; every deal takes the level's blinds. */
export function atLevel(table: TableDoc, now: Date): TableDoc {
  const sng = table.sng as SitAndGo;
  const started: SitAndGo = hasStarted(table)
    ? sng
    : {
        ...sng,
        startedAt: now,
        entrants: table.game.seats.flatMap((s) => (s && s.stack > 0 ? [s.userId] : [])),
      };
  const blinds = levelBlinds(sng, levelAt(started, now));
  return { ...table, sng: started, game: { ...table.game, smallBlind: blinds.small, bigBlind: blinds.big } };
}

/** A member who leaves a tournament under way: folded, out now, their chips out of play. */
export function forfeited(table: TableDoc, game: TableDoc['game'], seat: number): TableDoc {
  const sng = table.sng as SitAndGo;
  const g = structuredClone(game);
  const s = g.seats[seat];
  g.seats[seat] = null;
  return {
    ...table,
    game: g,
    sng: {
      ...sng,
      out: [
        ...sng.out,
        { userId: s?.userId ?? '', hand: game.handsPlayed, stack: s?.stack ?? 0, forfeit: true },
      ],
      retired: sng.retired + (s?.stack ?? 0),
    },
  };
}
