/**
 * `npm run bench:edge [-- ROUNDS]`: the measured house edge of every game over ROUNDS seeded
 * rounds (default 1,000,000) through the real rules (utils/games/), with its standard error.
 * ECONOMY.md quotes these figures; test/games/houseEdge.test.ts checks them on each run.
 */
import { measureHouseEdge } from '../utils/games/simulation.js';

const rounds = Number(process.argv[2] ?? 1_000_000);
const cases = [
  ['coinflip', 'coinflip', { side: 'heads' }],
  ['dice target 50', 'dice', { target: 50 }],
  ['dice target 10', 'dice', { target: 10 }],
  ['slots', 'slots', {}],
  ['blackjack (basic strategy)', 'blackjack', {}],
] as const;
for (const [name, game, params] of cases) {
  const { edge, standardError } = measureHouseEdge(game, params, rounds, 'house-edge-bench');
  console.log(
    `${name.padEnd(26)} edge ${(edge * 100).toFixed(2)} %  (standard error ${(standardError * 100).toFixed(2)} points, ${rounds} rounds)`,
  );
}
