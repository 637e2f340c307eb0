import { type HandRecord, netOf } from './handRecord.js';
import type { BoardRow, HandStore, PlayerStats } from './handStore.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    pokerHands: PokerHands;
  }
}

/** Most hands `/poker history` exports at once. */
export const HISTORY_MAX = 50;

/**
 * A hand in a member's history: the record, their seat's position and what it did to their
 * chips (Cookies at a cash table, tournament chips at a sit-and-go).
 */
export interface HistoryEntry {
  hand: HandRecord;
  position: string;
  net: number;
}

/**
 * The hands played, as members read them back (ECONOMY.md, "Poker"): a member's last hands, their
 * stats, a server's leaderboard. Every number is computed from the hands' records, written once
 * each (handStore.ts), so a retried or doubled end of a hand counts once.
 */
export class PokerHands {
  constructor(private readonly deps: { hands: HandStore }) {}

  async history(userId: string, count: number): Promise<HistoryEntry[]> {
    const found = await this.deps.hands.lastOf(userId, Math.min(count, HISTORY_MAX));
    return found.map(({ row, hand }) => {
      // A tournament hand's row counts no Cookies; its chips are read from the hand itself.
      const seat = hand.tournament ? hand.seats.find((s) => s.userId === userId) : undefined;
      return { hand, position: positionOf(hand, row.seat), net: seat ? netOf(seat) : row.net };
    });
  }

  stats(userId: string): Promise<PlayerStats> {
    return this.deps.hands.statsOf(userId);
  }

  leaderboard(guildId: string, size: number): Promise<BoardRow[]> {
    return this.deps.hands.board(guildId, size);
  }
}

/** The usual names of the seats after the big blind, the last ones nearest the button. */
const AFTER_BLINDS = ['UTG', 'UTG+1', 'UTG+2', 'LJ', 'HJ', 'CO'];

/** A seat's position in the hand: BTN, SB, BB, then UTG … CO from the big blind's left. */
export function positionOf(
  hand: Pick<HandRecord, 'seats' | 'button' | 'smallBlindSeat' | 'bigBlindSeat'>,
  seat: number,
): string {
  if (seat === hand.button) return 'BTN';
  if (seat === hand.smallBlindSeat) return 'SB';
  if (seat === hand.bigBlindSeat) return 'BB';
  const seats = hand.seats.map((s) => s.seat).sort((a, b) => a - b);
  const fromBb = [
    ...seats.filter((s) => s > hand.bigBlindSeat),
    ...seats.filter((s) => s < hand.bigBlindSeat),
  ];
  const others = fromBb.filter((s) => s !== hand.button && s !== hand.smallBlindSeat);
  const names = AFTER_BLINDS.slice(-others.length);
  return names[others.indexOf(seat)] ?? 'UTG';
}
