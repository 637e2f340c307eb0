import { describe, expect, it } from 'vitest';
import { archetypeCounts } from '../../sim/agent.js';
import { loadBehaviours } from '../../sim/behaviours.js';
import { meanInterval } from '../../sim/interval.js';
import { figuresOf, matrixLine } from '../../sim/matrix.js';
import type { StrategyFigure, Summary } from '../../sim/summary.js';

function run(overrides: Partial<Summary> & { thief?: number }): Summary {
  const thief: StrategyFigure = {
    strategy: 'richest_thief',
    currency: 'cookies',
    members: 5,
    activeHours: 10,
    perHour: 0,
    ratio: overrides.thief ?? 1,
    memberRatios: [overrides.thief ?? 1],
  };
  return {
    days: 30,
    agents: 50,
    supplyGrowthPctPerDay: 1,
    vaultMinOverReserve: 3,
    gini: 0.4,
    strategies: [thief],
    bestStrategyOverBaseline: thief.ratio,
    pixelsPerActiveHour: 12,
    cookiesPerHourByPath: new Map(),
    violations: 0,
    ...overrides,
  };
}

describe('figures over seeds and sizes (sim:economy --sizes --seeds)', () => {
  it("GIVEN three runs THEN the 95 % interval is the mean ± Student's t(0.975, 2) · s/√n", () => {
    const i = meanInterval([1, 2, 3]);
    expect(i.mean).toBe(2);
    // s = 1, t(0.975, 2) = 4.3027: half-width 4.3027 / √3 = 2.4842.
    expect(i.hi - i.mean).toBeCloseTo(2.4842, 3);
    expect(i.mean - i.lo).toBeCloseTo(2.4842, 3);
    expect(meanInterval([5, 5, 5, 5])).toMatchObject({ mean: 5, lo: 5, hi: 5 });
  });

  it('GIVEN a single run THEN its interval is unbounded: one seed says nothing about luck', () => {
    expect(meanInterval([1.4])).toMatchObject({
      mean: 1.4,
      lo: Number.NEGATIVE_INFINITY,
      hi: Number.POSITIVE_INFINITY,
    });
  });

  it('GIVEN sizes whose thief is lucky in one seed THEN the last line reports the best mean and the highest upper bound apart, the worst growth, the lowest vault and every violation', () => {
    const small = figuresOf(20, [
      run({ supplyGrowthPctPerDay: -1.5, thief: 1.1, vaultMinOverReserve: 2 }),
      run({ supplyGrowthPctPerDay: -2.5, thief: 2.9 }),
      run({ supplyGrowthPctPerDay: -2, thief: 1.0, violations: 1 }),
    ]);
    const large = figuresOf(200, [run({ thief: 1.2 }), run({ thief: 1.3 }), run({ thief: 1.25 })]);
    const line = matrixLine([small, large], 30);
    expect(line).toContain('sizes=20,200 seeds=3 days=30');
    expect(line).toContain('supply_growth_pct_per_day=-2.00');
    expect(line).toContain('vault_min_over_reserve=2.00');
    expect(line).toContain('best_strategy/baseline=1.67');
    const hi = Number(/best_strategy_hi95=([\d.]+)/.exec(line)?.[1]);
    expect(hi).toBeGreaterThan(4);
    expect(line).toContain('pixels_per_active_hour=12.0');
    expect(line).toMatch(/violations=1$/);
  });

  it("GIVEN two seeds of three thieves each THEN the thieves' interval rests on all six members", () => {
    const seed = (ratios: number[]) =>
      run({ strategies: [{ ...run({}).strategies[0], memberRatios: ratios } as StrategyFigure] });
    const size = figuresOf(50, [seed([0.9, 1.1, 1.0]), seed([1.2, 0.8, 1.0])]);
    expect(size.strategies[0]?.members).toBe(6);
    expect(size.strategies[0]?.ratio.mean).toBeCloseTo(1, 6);
    expect(size.strategies[0]?.ratio.n).toBe(6);
  });
});

describe('who follows a greedy strategy (sim/agent.ts)', () => {
  const behaviours = loadBehaviours('sim/behaviours.json');
  const greedyCounts = (count: number, perStrategy: number) => {
    const counts = archetypeCounts(behaviours.archetypes, count, { perStrategy });
    const greedy = behaviours.archetypes.flatMap((a, i) => (a.strategy === 'honest' ? [] : [counts[i] ?? 0]));
    return { counts, greedy };
  };

  it.each([20, 50, 200, 1_000])(
    'GIVEN %i members over three seeds THEN every greedy strategy has two or more in each run, and the counts add up',
    (count) => {
      const { counts, greedy } = greedyCounts(count, 2);
      expect(counts.reduce((s, c) => s + c, 0)).toBe(count);
      for (const g of greedy) expect(g).toBeGreaterThanOrEqual(Math.max(2, Math.floor(count * 0.03)));
    },
  );

  it('GIVEN a floor the community cannot afford THEN the greedy take at most half of it', () => {
    const { counts, greedy } = greedyCounts(20, 5);
    expect(greedy.reduce((s, c) => s + c, 0)).toBe(10);
    expect(counts.reduce((s, c) => s + c, 0)).toBe(20);
  });
});
