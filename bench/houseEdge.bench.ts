/**
 * `npm run bench:edge [-- ROUNDS]`: the measured house edge of every game over ROUNDS seeded
 * rounds (default 1,000,000) through the real rules (utils/games/), with its standard error.
 * ECONOMY.md gives each designed edge; test/games/houseEdge.test.ts checks them on each run. The
 * rows are every house game's edge cases (utils/games/houseGames/).
 */
import { HOUSE_GAMES } from '../utils/games/houseGames/index.js';
import { measureHouseEdge } from '../utils/games/simulation.js';

const rounds = Number(process.argv[2] ?? 1_000_000);
for (const game of HOUSE_GAMES) {
  for (const { label, params } of game.edgeCases) {
    const { edge, standardError } = measureHouseEdge(game.name, params, rounds, 'house-edge-bench');
    console.log(
      `${label.padEnd(26)} edge ${(edge * 100).toFixed(2)} %  (standard error ${(standardError * 100).toFixed(2)} points, ${rounds} rounds)`,
    );
  }
}
