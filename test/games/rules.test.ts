import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maxMultiplier, playInstant, recompute } from '../../utils/games/catalog.js';
import { hashServerSeed, roundFloats } from '../../utils/games/fairness.js';
import {
  act,
  type BlackjackState,
  blackjackPayout,
  type Card,
  deal,
  handValue,
  shuffledDeck,
} from '../../utils/games/houseGames/blackjack/rules.js';
import { coinflip } from '../../utils/games/houseGames/coinflip/rules.js';
import { dice } from '../../utils/games/houseGames/dice/rules.js';
import { slotMultiplier, slots, slotsReturnToPlayer } from '../../utils/games/houseGames/slots/rules.js';
import { settlement } from '../../utils/games/roundHolds.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { houseHold, maxBet, vaultLiquidity } from '../../utils/vault/liquidity.js';

// Cards by rank: suit ♠ (0–12): A=0, 2=1 … 10=9, J=10, Q=11, K=12.
const A = 0;
const FIVE = 4;
const SIX = 5;
const SEVEN = 6;
const NINE = 8;
const TEN = 9;
const KING = 12;

function hand(player: Card[], dealer: Card[], doubled = false): BlackjackState {
  return { deck: [], next: 0, player, dealer, doubled, phase: 'done' };
}

describe('provably fair randomness', () => {
  it('derives each float from HMAC-SHA256(server seed, "member seed:nonce:block"), four bytes at a time', () => {
    const digest = createHmac('sha256', 'server').update('member:7:0').digest();
    const floats = roundFloats('server', 'member', 7, 9);
    expect(floats[0]).toBe(digest.readUInt32BE(0) / 2 ** 32);
    expect(floats[7]).toBe(digest.readUInt32BE(28) / 2 ** 32);
    const next = createHmac('sha256', 'server').update('member:7:1').digest();
    expect(floats[8]).toBe(next.readUInt32BE(0) / 2 ** 32);
  });

  it('commits with SHA-256 of the server seed, and the same seeds always give the same round', () => {
    expect(hashServerSeed('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const seeds = { serverSeed: 's', memberSeed: 'm', nonce: 3 };
    expect(recompute({ game: 'slots', bet: 10, params: {} }, seeds)).toBe(
      recompute({ game: 'slots', bet: 10, params: {} }, seeds),
    );
    expect(recompute({ game: 'slots', bet: 10, params: {} }, { ...seeds, nonce: 4 })).not.toBe(
      recompute({ game: 'slots', bet: 10, params: {} }, seeds),
    );
  });

  it('shuffles a full deck: every card exactly once', () => {
    const deck = shuffledDeck(roundFloats('s', 'm', 0, 51));
    expect([...deck].sort((a, b) => a - b)).toEqual(Array.from({ length: 52 }, (_, i) => i));
  });
});

describe('instant games', () => {
  it('pays a called coin 1.96 × the bet, rounded down, and nothing otherwise', () => {
    expect(coinflip.play([0.2], 100, { side: 'heads' })).toEqual({
      payout: 196,
      outcome: { landed: 'heads' },
    });
    expect(coinflip.play([0.7], 100, { side: 'heads' })).toEqual({ payout: 0, outcome: { landed: 'tails' } });
    expect(coinflip.play([0.7], 15, { side: 'tails' }).payout).toBe(29);
  });

  it('wins dice at or under the target and pays 97/target × the bet', () => {
    expect(dice.play([0.299], 100, { target: 30 })).toEqual({ payout: 323, outcome: { roll: 30 } });
    expect(dice.play([0.3], 100, { target: 30 })).toEqual({ payout: 0, outcome: { roll: 31 } });
    expect(dice.play([0], 100, { target: 50 }).outcome.roll).toBe(1);
    expect(dice.play([0.99999], 100, { target: 95 }).outcome.roll).toBe(100);
  });

  it('pays slots by the pay table', () => {
    expect(slotMultiplier(['🍪', '🍪', '🍪'])).toBe(100);
    expect(slotMultiplier(['🍒', '🍒', '🍒'])).toBe(10);
    expect(slotMultiplier(['🍪', '🍋', '🍪'])).toBe(5);
    expect(slotMultiplier(['🍪', '🍋', '🍒'])).toBe(0);
    expect(slots.play([0, 0, 0], 7, {})).toEqual({ payout: 70, outcome: { reels: ['🍒', '🍒', '🍒'] } });
  });

  it('keeps the documented slots return to player (ECONOMY.md: 96.83 %)', () => {
    expect(slotsReturnToPlayer()).toBeCloseTo(0.9683, 4);
  });

  it('names the largest payout the vault must cover for each game', () => {
    expect(maxMultiplier('coinflip', { side: 'heads' })).toBe(1.96);
    expect(maxMultiplier('dice', { target: 5 })).toBeCloseTo(19.4);
    expect(maxMultiplier('slots', {})).toBe(100);
    expect(maxMultiplier('blackjack', {})).toBe(4);
    expect(
      playInstant('dice', { serverSeed: 's', memberSeed: 'm', nonce: 0 }, 10, { target: 50 }).outcome.roll,
    ).toBeGreaterThan(0);
  });
});

describe('blackjack', () => {
  it('counts aces as 11 until that would bust', () => {
    expect(handValue([A, KING])).toEqual({ total: 21, soft: true });
    expect(handValue([A, A, NINE])).toEqual({ total: 21, soft: true });
    expect(handValue([A, SEVEN, KING])).toEqual({ total: 18, soft: false });
  });

  it('pays 3:2 for a natural, 1:1 for a win, the stake for a push, nothing for a loss or bust', () => {
    expect(blackjackPayout(hand([A, KING], [NINE, SEVEN]), 100)).toBe(250);
    expect(blackjackPayout(hand([A, KING], [A, KING]), 100)).toBe(100);
    expect(blackjackPayout(hand([TEN, NINE], [TEN, SEVEN]), 100)).toBe(200);
    expect(blackjackPayout(hand([TEN, SEVEN], [TEN, SEVEN]), 100)).toBe(100);
    expect(blackjackPayout(hand([TEN, SIX, KING], [TEN, SEVEN]), 100)).toBe(0);
    expect(blackjackPayout(hand([TEN, SIX], [TEN, SIX, KING]), 100)).toBe(200);
    expect(blackjackPayout(hand([FIVE, SIX, TEN], [TEN, NINE], true), 100)).toBe(400);
  });

  it('ends the hand at once on a natural, and the dealer draws to 17 after a stand', () => {
    // Deal order: player, dealer, player, dealer.
    expect(deal([A, NINE, KING, SEVEN, ...Array(48).fill(TEN)]).phase).toBe('done');
    const dealt = deal([TEN, SIX, SEVEN, TEN, FIVE, KING, ...Array(46).fill(TEN)]);
    expect(dealt.phase).toBe('playing');
    const stood = act(dealt, 'stand');
    expect(stood.phase).toBe('done');
    expect(stood.dealer).toEqual([SIX, TEN, FIVE]);
    const doubled = act(dealt, 'double');
    expect(doubled.doubled).toBe(true);
    expect(doubled.player).toEqual([TEN, SEVEN, FIVE]);
  });
});

describe('vault liquidity', () => {
  it('accepts the largest bet whose largest win fits in the payable share above the reserve', () => {
    const v = vaultLiquidity(110_000, 10_000, 5);
    expect(v).toEqual({ balance: 110_000, reserve: 10_000, free: 100_000, payable: 5_000 });
    expect(maxBet(v, 2)).toBe(5_000);
    expect(houseHold(maxBet(v, 4), 4)).toBeLessThanOrEqual(5_000);
    expect(houseHold(maxBet(v, 4) + 1, 4)).toBeGreaterThan(5_000);
    expect(maxBet(vaultLiquidity(5_000, 10_000, 5), 2)).toBe(0);
  });
});

describe('where a settled round’s holds go', () => {
  const round = (payout: number, doubled = false): RoundDoc =>
    ({
      _id: 'r',
      userId: 'ann',
      bet: 100,
      hold: 300,
      payout,
      doubleHold: doubled ? 'game:r:double:2' : undefined,
      hand: doubled ? { doubled: true } : undefined,
    }) as unknown as RoundDoc;
  const paid = (r: RoundDoc) =>
    settlement(r, 'house').map((p) => [p.id, p.postings.map((x) => `${x.to}:${x.amount}`), p.rest ?? null]);

  it('GIVEN a win, a loss and a won double THEN the payout comes from the stakes first, then from the house’s share, whose rest goes back', () => {
    expect(paid(round(196))).toEqual([
      ['game:r:stake', ['ann:100', 'house:0'], null],
      ['game:r:house', ['ann:96'], 'return'],
    ]);
    expect(paid(round(0))).toEqual([
      ['game:r:stake', ['ann:0', 'house:100'], null],
      ['game:r:house', ['ann:0'], 'return'],
    ]);
    expect(paid(round(400, true))).toEqual([
      ['game:r:stake', ['ann:100', 'house:0'], null],
      ['game:r:double:2', ['ann:100', 'house:0'], null],
      ['game:r:house', ['ann:200'], 'return'],
    ]);
  });
});
