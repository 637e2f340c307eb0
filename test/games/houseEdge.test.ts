import { describe, expect, it } from 'vitest';
import { blackjackDeck, playInstant } from '../../utils/games/catalog.js';
import { act, basicStrategy, blackjackPayout, deal } from '../../utils/games/rules/blackjack.js';

/**
 * The house edge of each game, measured over 100,000 seeded rounds through the same rule and
 * settlement code the bot plays with (utils/games/catalog.ts, rules/). Each game's edge is
 * documented in ECONOMY.md; each tolerance is about four standard errors of the run (slots,
 * whose rare jackpot makes one round swing far more, runs 1,000,000 rounds to keep it tight).
 */
const ROUNDS = 100_000;
const BET = 100;

function measure(round: (nonce: number) => { staked: number; paid: number }, rounds = ROUNDS): number {
  let staked = 0;
  let paid = 0;
  for (let nonce = 0; nonce < rounds; nonce++) {
    const r = round(nonce);
    staked += r.staked;
    paid += r.paid;
  }
  return 1 - paid / staked;
}

const seeds = (nonce: number) => ({ serverSeed: 'house-edge-simulation', memberSeed: 'member', nonce });

describe('house edge over 100,000 seeded rounds', () => {
  it('coinflip: 2 % (tolerance ±1.3 points)', () => {
    const edge = measure((n) => ({
      staked: BET,
      paid: playInstant('coinflip', seeds(n), BET, { side: 'heads' }).payout,
    }));
    expect(edge).toBeGreaterThan(0.02 - 0.013);
    expect(edge).toBeLessThan(0.02 + 0.013);
  });

  it('dice at target 50: 3 % (tolerance ±1.3 points)', () => {
    const edge = measure((n) => ({
      staked: BET,
      paid: playInstant('dice', seeds(n), BET, { target: 50 }).payout,
    }));
    expect(edge).toBeGreaterThan(0.03 - 0.013);
    expect(edge).toBeLessThan(0.03 + 0.013);
  });

  it('slots: 3.17 % over 1,000,000 rounds (tolerance ±1.7 points)', () => {
    const edge = measure(
      (n) => ({ staked: BET, paid: playInstant('slots', seeds(n), BET, {}).payout }),
      1_000_000,
    );
    expect(edge).toBeGreaterThan(0.0317 - 0.017);
    expect(edge).toBeLessThan(0.0317 + 0.017);
  });

  it('blackjack with basic strategy: 0.8 % of stakes (tolerance ±1.5 points)', () => {
    const edge = measure((n) => {
      let hand = deal(blackjackDeck(seeds(n)));
      while (hand.phase === 'playing') hand = act(hand, basicStrategy(hand));
      return { staked: hand.doubled ? BET * 2 : BET, paid: blackjackPayout(hand, BET) };
    });
    expect(edge).toBeGreaterThan(0.008 - 0.015);
    expect(edge).toBeLessThan(0.008 + 0.015);
  });
});
