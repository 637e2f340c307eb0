import type { InstantGame } from '../houseGame.js';

/** A roll of 1–100 wins at or under the target; the payout makes every target a 3 % house edge. */
export const DICE_RETURN_PCT = 97;
export const DICE_MIN_TARGET = 5;
export const DICE_MAX_TARGET = 95;

function multiplier(target: number): number {
  return DICE_RETURN_PCT / target;
}

export const dice: InstantGame<{ target: number }, { roll: number }> = {
  name: 'dice',
  floatsNeeded: 1,
  maxMultiplier: ({ target }) => multiplier(target),
  play([f = 0], bet, { target }) {
    const roll = Math.floor(f * 100) + 1;
    const payout = roll <= target ? Math.floor(bet * multiplier(target)) : 0;
    return { payout, outcome: { roll } };
  },
};
