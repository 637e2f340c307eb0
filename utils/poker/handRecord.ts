import type { Card } from './cards.js';
import type { Hand, HandPlayer, LogEntry } from './game.js';
import { levelAt } from './sitAndGo.js';
import type { TableDoc } from './tableStore.js';

/*
 * A finished hand as it is kept for good (`poker_hands`): who sat where with what, every action
 * in order, the board, the pots and who won them. Built, pure, from the table's state alone, so
 * whoever finds the hand ended (the press that ended it, or the next write of its table after a
 * crash) writes the same record.
 */

export type BettingStreet = 'preflop' | 'flop' | 'turn' | 'river';

/** One action: a blind posted, or a decision; `amount` is a call's chips, a bet's or a raise's total. */
export interface HandAction {
  street: BettingStreet;
  seat: number;
  what: 'small blind' | 'big blind' | 'fold' | 'check' | 'call' | 'bet' | 'raise';
  amount?: number;
  allIn?: boolean;
  timedOut?: boolean;
}

/** A member's part in a hand: chips put in, collected from pots, given back uncalled or on a call-off. */
export interface HandSeat {
  seat: number;
  userId: string;
  /** Their stack when the hand was dealt. */
  stack: number;
  hole: Card[];
  put: number;
  collected: number;
  returned: number;
  /** Put chips in before the flop of their own will (a call, bet or raise; not a blind). */
  vpip: boolean;
}

export interface HandRecordPot {
  amount: number;
  /** What each winner took, by seat. */
  shares: Record<string, number>;
}

export interface HandRecord {
  /** `<table>:<hand number>`: one record per hand, whoever writes it. */
  _id: string;
  tableId: string;
  guildId: string | null;
  number: number;
  startedAt: Date;
  endedAt: Date;
  smallBlind: number;
  bigBlind: number;
  button: number;
  smallBlindSeat: number;
  bigBlindSeat: number;
  seatsAtTable: number;
  seats: HandSeat[];
  actions: HandAction[];
  board: Card[];
  /** Pots as paid, after the rake; a bet nobody called is not a pot (it is `returned`). */
  pots: HandRecordPot[];
  rake: number;
  /** The hands shown down: the best five and the evaluator's category. */
  shown: { seat: number; best: Card[]; strength: number }[];
  /** Called off when the table closed: every chip went back (`returned`). */
  calledOff: boolean;
  /**
   * Played at a sit-and-go: its buy-in in Cookies and the blind level (from 1) the hand was dealt
   * at. Its chips are tournament chips, not Cookies. Absent at a cash table.
   */
  tournament?: { buyIn: number; level: number };
}

export const handRecordId = (tableId: string, number: number) => `${tableId}:${number}`;

/** The record of the table's hand, once it has ended (null while it is in play or when there is none). */
export function handRecordOf(table: TableDoc): HandRecord | null {
  const hand = table.game.hand;
  if (hand?.street !== 'done') return null;
  const endedAt = table.stepAt;
  const calledOff = hand.returned !== undefined;
  const uncalled = calledOff ? null : uncalledBet(hand);
  const pots = (hand.result?.pots ?? []).map((pot) => ({ amount: pot.amount, shares: { ...pot.shares } }));
  if (uncalled) takeUncalled(pots, uncalled);
  return {
    _id: handRecordId(table._id, hand.number),
    tableId: table._id,
    guildId: table.guildId ?? null,
    number: hand.number,
    startedAt: table.dealtAt ?? endedAt,
    endedAt,
    smallBlind: table.game.smallBlind,
    bigBlind: table.game.bigBlind,
    button: hand.button,
    smallBlindSeat: hand.smallBlindSeat,
    bigBlindSeat: hand.bigBlindSeat,
    seatsAtTable: table.game.seats.length,
    seats: hand.players.map((p) => seatRecord(table, hand, p, pots, uncalled)),
    actions: actionsOf(hand, table.game.smallBlind, table.game.bigBlind),
    board: [...hand.board],
    pots: pots.filter((pot) => pot.amount > 0),
    rake: hand.result?.rake ?? 0,
    shown: (hand.result?.shown ?? []).map((s) => ({ seat: s.seat, best: s.cards, strength: s.strength })),
    calledOff,
    ...(table.sng
      ? { tournament: { buyIn: table.sng.buyIn, level: levelAt(table.sng, table.dealtAt ?? endedAt) + 1 } }
      : {}),
  };
}

/** A player's seat as recorded: what they sat with, held, put in and got out. */
function seatRecord(
  table: TableDoc,
  hand: Hand,
  p: HandPlayer,
  pots: HandRecordPot[],
  uncalled: { seat: number; amount: number } | null,
): HandSeat {
  const off = hand.returned?.[String(p.seat)];
  const put = off ? off.put : p.total;
  const collected = pots.reduce((sum, pot) => sum + (pot.shares[String(p.seat)] ?? 0), 0);
  const returned = off ? off.back : uncalled?.seat === p.seat ? uncalled.amount : 0;
  // A hand dealt before stacks were kept: the stack now plus what went in, or what went in.
  const seated = table.game.seats[p.seat];
  const stack = p.start ?? put + (seated?.userId === p.userId ? seated.stack : 0);
  const vpip = hand.log.some(
    (e, i) =>
      (e.what === 'call' || e.what === 'bet' || e.what === 'raise') &&
      e.userId === p.userId &&
      !hand.log.slice(0, i).some((x) => x.what === 'street'),
  );
  return { seat: p.seat, userId: p.userId, stack, hole: [...p.hole], put, collected, returned, vpip };
}

/**
 * A bet or raise nobody called goes back to its player: the chips the top contributor put in
 * above everyone else. The engine pays it as a pot of one; the record, as the uncalled bet it is.
 */
function uncalledBet(hand: Hand): { seat: number; amount: number } | null {
  const byTotal = [...hand.players].sort((a, b) => b.total - a.total);
  const [top, second] = byTotal;
  if (!top || top.folded) return null;
  const amount = top.total - (second?.total ?? 0);
  return amount > 0 ? { seat: top.seat, amount } : null;
}

/** Takes the uncalled chips out of the last pot: the top contributor's level, which pays only them. */
function takeUncalled(pots: HandRecordPot[], uncalled: { seat: number; amount: number }): void {
  const key = String(uncalled.seat);
  const pot = pots.at(-1);
  if (!pot || pot.shares[key] === undefined) return;
  const take = Math.min(uncalled.amount, pot.amount);
  pot.amount -= take;
  pot.shares[key] = (pot.shares[key] ?? 0) - take;
  if (pot.shares[key] === 0) delete pot.shares[key];
}

/** The blinds as posted (a short stack posts what it has) and every decision, street by street. */
function actionsOf(hand: Hand, smallBlind: number, bigBlind: number): HandAction[] {
  const seatOfUser = new Map(hand.players.map((p) => [p.userId, p.seat]));
  const actions: HandAction[] = [];
  let street: BettingStreet = 'preflop';
  for (const e of hand.log) actions.push(...fromLog(e));
  return actions;

  function fromLog(e: LogEntry): HandAction[] {
    switch (e.what) {
      case 'blinds':
        return [
          blind(hand, hand.smallBlindSeat, 'small blind', smallBlind),
          blind(hand, hand.bigBlindSeat, 'big blind', bigBlind),
        ];
      case 'street':
        if (e.street !== 'done') street = e.street;
        return [];
      case 'fold':
      case 'check':
        return [
          {
            street,
            seat: seatOfUser.get(e.userId) ?? -1,
            what: e.what,
            ...(e.timedOut ? { timedOut: true } : {}),
          },
        ];
      case 'call':
      case 'bet':
      case 'raise':
        return [
          { street, seat: seatOfUser.get(e.userId) ?? -1, what: e.what, amount: e.amount, allIn: e.allIn },
        ];
      case 'off':
        return [];
    }
  }
}

function blind(hand: Hand, seat: number, what: 'small blind' | 'big blind', size: number): HandAction {
  const p = hand.players.find((x) => x.seat === seat);
  const stack = p?.start ?? size;
  return { street: 'preflop', seat, what, amount: Math.min(size, stack), allIn: stack <= size };
}

/** What the hand did to a seat's chips: collected and given back, less what they put in. */
export function netOf(seat: HandSeat): number {
  return seat.collected + seat.returned - seat.put;
}
