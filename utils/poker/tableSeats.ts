import type { TableDoc } from './tableStore.js';

/** The seat the member sits in (a pending buy-in counts), or null. */
export function seatOf(table: TableDoc, userId: string): number | null {
  const seat = table.game.seats.findIndex((s) => s?.userId === userId);
  if (seat >= 0) return seat;
  return table.pending.find((m) => m.kind === 'buyin' && m.userId === userId)?.seat ?? null;
}
