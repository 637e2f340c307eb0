import type { InstantGame } from '../houseGame.js';

/** The symbols of each reel with their weights (all three reels are the same). */
export const SLOT_REEL = [
  { symbol: '🍒', weight: 10 },
  { symbol: '🍋', weight: 8 },
  { symbol: '🍩', weight: 6 },
  { symbol: '🧁', weight: 4 },
  { symbol: '🍪', weight: 2 },
] as const;

export type SlotSymbol = (typeof SLOT_REEL)[number]['symbol'];

/** Three of a kind pays this many times the bet; exactly two 🍪 anywhere pay `SLOT_COOKIE_PAIR` times. */
export const SLOT_TRIPLES: Record<SlotSymbol, number> = { '🍒': 10, '🍋': 12, '🍩': 20, '🧁': 50, '🍪': 100 };
export const SLOT_COOKIE_PAIR = 5;

const TOTAL_WEIGHT = SLOT_REEL.reduce((sum, s) => sum + s.weight, 0);

function symbolAt(f: number): SlotSymbol {
  let left = f * TOTAL_WEIGHT;
  for (const s of SLOT_REEL) {
    if (left < s.weight) return s.symbol;
    left -= s.weight;
  }
  return '🍪';
}

/** The multiple of the bet three symbols pay. */
export function slotMultiplier(reels: readonly SlotSymbol[]): number {
  const [a, b, c] = reels;
  if (a === b && b === c && a) return SLOT_TRIPLES[a];
  if (reels.filter((s) => s === '🍪').length === 2) return SLOT_COOKIE_PAIR;
  return 0;
}

/** The exact share of bets paid back, by enumerating every weighted combination (ECONOMY.md). */
export function slotsReturnToPlayer(): number {
  let paid = 0;
  for (const a of SLOT_REEL)
    for (const b of SLOT_REEL)
      for (const c of SLOT_REEL) {
        paid += a.weight * b.weight * c.weight * slotMultiplier([a.symbol, b.symbol, c.symbol]);
      }
  return paid / TOTAL_WEIGHT ** 3;
}

export const slots: InstantGame<Record<string, never>, { reels: SlotSymbol[] }> = {
  name: 'slots',
  floatsNeeded: 3,
  maxMultiplier: () => Math.max(...Object.values(SLOT_TRIPLES), SLOT_COOKIE_PAIR),
  play(floats, bet) {
    const reels = [0, 1, 2].map((i) => symbolAt(floats[i] ?? 0));
    return { payout: Math.floor(bet * slotMultiplier(reels)), outcome: { reels } };
  },
};
