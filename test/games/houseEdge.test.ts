import { describe, expect, it } from 'vitest';
import { HOUSE_GAMES } from '../../utils/games/houseGames/index.js';
import { measureHouseEdge } from '../../utils/games/simulation.js';

/**
 * The house edge of each game, measured over seeded rounds through the same rule and
 * settlement code the bot plays with (utils/games/). Each game's edge is documented in
 * ECONOMY.md and in its entry's edge cases; each tolerance is about four standard errors of
 * the run (slots, whose rare jackpot makes one round swing far more, runs 1,000,000 rounds).
 */
const SEED = 'house-edge-simulation';
const CASES = HOUSE_GAMES.flatMap((game) => game.edgeCases.map((c) => ({ ...c, game: game.name })));

describe('house edge over seeded rounds', () => {
  it.each(CASES)('$label: $documented of stakes over $rounds rounds', (c) => {
    const { edge, standardError } = measureHouseEdge(c.game, c.params, c.rounds, SEED);
    expect(c.tolerance).toBeGreaterThanOrEqual(3.5 * standardError);
    expect(edge).toBeGreaterThan(c.documented - c.tolerance);
    expect(edge).toBeLessThan(c.documented + c.tolerance);
  });
});
