import type { InstantGame } from '../houseGame.js';

export type CoinSide = 'heads' | 'tails';

/** Pays 1.96 × the bet on the called side: a 2 % house edge (payouts round down to whole Cookies). */
export const COINFLIP_MULTIPLIER_PCT = 196;

export const coinflip: InstantGame<{ side: CoinSide }, { landed: CoinSide }> = {
  name: 'coinflip',
  floatsNeeded: 1,
  maxMultiplier: () => COINFLIP_MULTIPLIER_PCT / 100,
  play([f = 0], bet, { side }) {
    const landed: CoinSide = f < 0.5 ? 'heads' : 'tails';
    const payout = landed === side ? Math.floor((bet * COINFLIP_MULTIPLIER_PCT) / 100) : 0;
    return { payout, outcome: { landed } };
  },
};
