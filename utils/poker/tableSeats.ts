import type { Seat } from './game.js';
import type { TableDoc } from './tableStore.js';

/** The seat the member sits in (a pending buy-in counts), or null. */
export function seatOf(table: TableDoc, userId: string): number | null {
  const seat = table.game.seats.findIndex((s) => s?.userId === userId);
  if (seat >= 0) return seat;
  return table.pending.find((m) => m.kind === 'buyin' && m.userId === userId)?.seat ?? null;
}

/** The seats, the one at `seat` marked away or not. */
export function withAway(seats: (Seat | null)[], seat: number, away: boolean): (Seat | null)[] {
  return seats.map((s, i) => {
    if (i !== seat || !s) return s;
    const { away: _, ...rest } = s;
    return away ? { ...rest, away: true } : rest;
  });
}
