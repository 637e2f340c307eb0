import type { Card } from './cards.js';

/** A hand's category as the board names it (`poker:hand.<kind>`), with the ranks the name needs. */
export type HandName =
  | { kind: 'highCard' | 'straight' | 'flush' | 'straightFlush'; high: string }
  | { kind: 'pair' | 'threeOfAKind' | 'fourOfAKind'; rank: string }
  | { kind: 'twoPair'; high: string; low: string }
  | { kind: 'fullHouse'; three: string; two: string }
  | { kind: 'royalFlush' };

const ORDER = '23456789TJQKA';
const byRank = (a: string, b: string) => ORDER.indexOf(b) - ORDER.indexOf(a);

/**
 * The full name of a best five (the evaluator ranks; this only names): "pair of fives", "two
 * pair, kings and sevens", "flush, ace high". `strength` is the evaluator's category (0 high
 * card … 9 royal flush); the ranks come from the cards themselves.
 */
export function handName(strength: number, best: Card[]): HandName {
  const ranks = best.map((c) => c[0] as string);
  const counts = new Map<string, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  const withCount = (n: number) =>
    [...counts]
      .filter(([, c]) => c === n)
      .map(([r]) => r)
      .sort(byRank);
  const high = [...ranks].sort(byRank)[0] ?? 'A';
  // The wheel (A-2-3-4-5) is a five-high straight: its ace plays low.
  const straightHigh = ranks.includes('A') && ranks.includes('5') && !ranks.includes('K') ? '5' : high;
  switch (strength) {
    case 1:
      return { kind: 'pair', rank: withCount(2)[0] ?? high };
    case 2: {
      const [first, second] = withCount(2);
      return { kind: 'twoPair', high: first ?? high, low: second ?? high };
    }
    case 3:
      return { kind: 'threeOfAKind', rank: withCount(3)[0] ?? high };
    case 4:
      return { kind: 'straight', high: straightHigh };
    case 5:
      return { kind: 'flush', high };
    case 6:
      return { kind: 'fullHouse', three: withCount(3)[0] ?? high, two: withCount(2)[0] ?? high };
    case 7:
      return { kind: 'fourOfAKind', rank: withCount(4)[0] ?? high };
    case 8:
      return { kind: 'straightFlush', high: straightHigh };
    case 9:
      return { kind: 'royalFlush' };
    default:
      return { kind: 'highCard', high };
  }
}
