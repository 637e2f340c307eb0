import { describe, expect, it } from 'vitest';
import { measureHouseEdge } from '../../utils/games/simulation.js';

/**
 * The house edge of each game, measured over 100,000 seeded rounds through the same rule and
 * settlement code the bot plays with (utils/games/). Each game's edge is documented in
 * ECONOMY.md; each tolerance is about four standard errors of the run (slots, whose rare
 * jackpot makes one round swing far more, runs 1,000,000 rounds to keep it tight).
 */
const SEED = 'house-edge-simulation';

describe('house edge over 100,000 seeded rounds', () => {
  it.each([
    ['coinflip: 2 %', 'coinflip', { side: 'heads' }, 100_000, 0.02, 0.013],
    ['dice at target 50: 3 %', 'dice', { target: 50 }, 100_000, 0.03, 0.013],
    ['dice at target 10: 3 %', 'dice', { target: 10 }, 100_000, 0.03, 0.037],
    ['slots: 3.17 % (1,000,000 rounds)', 'slots', {}, 1_000_000, 0.0317, 0.017],
    ['blackjack with basic strategy: 0.7 % of stakes', 'blackjack', {}, 100_000, 0.007, 0.015],
  ] as const)('%s', (_, game, params, rounds, documented, tolerance) => {
    const { edge, standardError } = measureHouseEdge(game, params, rounds, SEED);
    expect(tolerance).toBeGreaterThanOrEqual(3.5 * standardError);
    expect(edge).toBeGreaterThan(documented - tolerance);
    expect(edge).toBeLessThan(documented + tolerance);
  });
});
