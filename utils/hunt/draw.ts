/**
 * The guess lottery's draw: `count` tips without replacement, each with its weight (1, or
 * `beacon_bonus_weight` on the boosted path). Sequential weighted draws: each pick takes tip i
 * with probability weight_i / (sum of the weights still in), from the injected generator's
 * integers, so a seeded generator gives the same draw.
 */
export function weightedDraw<T extends { weight: number }>(
  entries: readonly T[],
  count: number,
  randomInt: (min: number, max: number) => number,
): T[] {
  const pool = [...entries];
  const drawn: T[] = [];
  while (drawn.length < count && pool.length > 0) {
    const total = pool.reduce((sum, e) => sum + e.weight, 0);
    let pick = randomInt(0, total);
    let index = 0;
    for (; index < pool.length - 1; index++) {
      pick -= (pool[index] as T).weight;
      if (pick < 0) break;
    }
    drawn.push(...pool.splice(index, 1));
  }
  return drawn;
}
