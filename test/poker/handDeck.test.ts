import { describe, expect, it } from 'vitest';
import { act, FULL_DECK, type Game, startHand } from '../../utils/poker/engine.js';
import { dealtFrom, handDeck } from '../../utils/poker/handDeck.js';

const SEEDS = { serverSeed: 'a1'.repeat(32), clientSeeds: ['880000000000000001', 'my-own-seed'], hand: 4 };

function game(players: number): Game {
  return {
    seats: Array.from({ length: players }, (_, i) => ({ userId: `p${i}`, stack: 1_000 })),
    button: -1,
    smallBlind: 5,
    bigBlind: 10,
    rakePct: 0,
    rakeCap: 0,
    hand: null,
    handsPlayed: 0,
  };
}

describe('a poker hand deck from its seeds', () => {
  it('GIVEN the same seeds THEN the same full deck; GIVEN any seed changed THEN another deck', () => {
    const deck = handDeck(SEEDS);
    expect(handDeck({ ...SEEDS, clientSeeds: [...SEEDS.clientSeeds] })).toEqual(deck);
    expect([...deck].sort()).toEqual([...FULL_DECK].sort());
    for (const changed of [
      { ...SEEDS, serverSeed: 'b2'.repeat(32) },
      { ...SEEDS, clientSeeds: ['880000000000000001', 'my-own-seed2'] },
      { ...SEEDS, clientSeeds: [...SEEDS.clientSeeds].reverse() },
      { ...SEEDS, hand: 5 },
    ]) {
      expect(handDeck(changed)).not.toEqual(deck);
    }
  });

  it('GIVEN 5,200 hands THEN every card leads the deck about equally often (chi-square, 51 degrees of freedom)', () => {
    const counts = new Map<string, number>();
    const hands = 5_200;
    for (let hand = 1; hand <= hands; hand++) {
      const first = handDeck({ ...SEEDS, hand })[0] as string;
      counts.set(first, (counts.get(first) ?? 0) + 1);
    }
    const expected = hands / FULL_DECK.length;
    const chiSquare = FULL_DECK.reduce(
      (sum, c) => sum + ((counts.get(c) ?? 0) - expected) ** 2 / expected,
      0,
    );
    // 51 degrees of freedom: above 87 one time in a thousand for a uniform shuffle.
    expect(chiSquare).toBeLessThan(87);
  });

  it('GIVEN a dealt deck THEN the hole cards and the board are those the table deals from it', () => {
    const deck = handDeck(SEEDS);
    let g = startHand(game(3), deck);
    const { holes, board } = dealtFrom(deck, 3);
    expect(g.hand?.players.map((p) => p.hole)).toEqual(holes);
    // Everyone checks or calls down to the river.
    while (g.hand && g.hand.street !== 'done' && g.hand.toAct !== null) {
      const seat = g.hand.toAct;
      const p = g.hand.players.find((x) => x.seat === seat);
      g = act(g, seat, { type: (p?.committed ?? 0) < g.hand.currentBet ? 'call' : 'check' });
    }
    expect(g.hand?.board).toEqual(board);
  });
});
