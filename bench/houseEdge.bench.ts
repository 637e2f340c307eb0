/**
 * `npm run bench:edge [-- ROUNDS]`: the measured house edge of every game over ROUNDS seeded
 * rounds (default 1,000,000) through the real rules (utils/games/), with its standard error.
 * ECONOMY.md quotes these figures; test/games/houseEdge.test.ts checks them on each run.
 */
import { blackjackDeck, playInstant } from '../utils/games/catalog.js';
import { act, basicStrategy, blackjackPayout, deal } from '../utils/games/rules/blackjack.js';

const rounds = Number(process.argv[2] ?? 1_000_000);
const BET = 100;
const seeds = (nonce: number) => ({ serverSeed: 'house-edge-bench', memberSeed: 'member', nonce });

function measure(name: string, round: (nonce: number) => { staked: number; paid: number }): void {
  let staked = 0;
  let paid = 0;
  let squares = 0;
  for (let n = 0; n < rounds; n++) {
    const r = round(n);
    staked += r.staked;
    paid += r.paid;
    squares += ((r.staked - r.paid) / BET) ** 2;
  }
  const edge = 1 - paid / staked;
  const meanLoss = (staked - paid) / BET / rounds;
  const se = Math.sqrt((squares / rounds - meanLoss ** 2) / rounds);
  console.log(
    `${name.padEnd(26)} edge ${(edge * 100).toFixed(2)} %  (standard error ${(se * 100).toFixed(2)} points, ${rounds} rounds)`,
  );
}

measure('coinflip', (n) => ({
  staked: BET,
  paid: playInstant('coinflip', seeds(n), BET, { side: 'heads' }).payout,
}));
measure('dice target 50', (n) => ({
  staked: BET,
  paid: playInstant('dice', seeds(n), BET, { target: 50 }).payout,
}));
measure('dice target 10', (n) => ({
  staked: BET,
  paid: playInstant('dice', seeds(n), BET, { target: 10 }).payout,
}));
measure('slots', (n) => ({ staked: BET, paid: playInstant('slots', seeds(n), BET, {}).payout }));
measure('blackjack (basic strategy)', (n) => {
  let hand = deal(blackjackDeck(seeds(n)));
  while (hand.phase === 'playing') hand = act(hand, basicStrategy(hand));
  return { staked: hand.doubled ? BET * 2 : BET, paid: blackjackPayout(hand, BET) };
});
