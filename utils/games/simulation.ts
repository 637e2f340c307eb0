import type { FairnessInput } from './fairness.js';
import { type GameName, type GameParams, houseGame } from './houseGames/index.js';

/** One simulated round: what the member staked and what came back (blackjack plays basic strategy). */
export function simulatedRound(
  game: GameName,
  seeds: FairnessInput,
  bet: number,
  params: GameParams = {},
): { staked: number; paid: number } {
  return houseGame(game).simulate(seeds, bet, params);
}

/**
 * The house edge of a game over `rounds` seeded rounds (nonces 0..rounds-1) through the same
 * rules the bot plays: 1 − paid / staked, with the standard error of the loss per bet.
 * `npm run bench:edge` prints it; test/games/houseEdge.test.ts checks it.
 */
export function measureHouseEdge(
  game: GameName,
  params: GameParams,
  rounds: number,
  serverSeed: string,
  bet = 100,
): { edge: number; standardError: number } {
  let staked = 0;
  let paid = 0;
  let squares = 0;
  for (let nonce = 0; nonce < rounds; nonce++) {
    const r = simulatedRound(game, { serverSeed, memberSeed: 'simulation', nonce }, bet, params);
    staked += r.staked;
    paid += r.paid;
    squares += ((r.staked - r.paid) / bet) ** 2;
  }
  const meanLoss = (staked - paid) / bet / rounds;
  return { edge: 1 - paid / staked, standardError: Math.sqrt((squares / rounds - meanLoss ** 2) / rounds) };
}
