import { compare, evaluate } from '@poker-apprentice/hand-evaluator';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/rng.js';
import {
  act,
  type Card,
  cancelHand,
  FULL_DECK,
  foldOut,
  type Game,
  legalActions,
  type PokerAction,
  startHand,
} from '../../utils/poker/engine.js';

function table(stacks: (number | null)[], blinds: [number, number] = [5, 10], rakePct = 0): Game {
  return {
    seats: stacks.map((s, i) => (s === null ? null : { userId: `p${i}`, stack: s })),
    button: -1,
    smallBlind: blinds[0],
    bigBlind: blinds[1],
    rakePct,
    rakeCap: 1_000,
    hand: null,
    handsPlayed: 0,
  };
}

/** A deck dealing `holes` (two rounds, one card each, in seat order of the hand's players) then `board`, with burn cards. */
function deck(holes: Card[][], board: Card[]): Card[] {
  const dealt: Card[] = [];
  for (let round = 0; round < 2; round++) for (const h of holes) dealt.push(h[round] as Card);
  const [f1, f2, f3, turn, river] = board;
  const burn = () => FULL_DECK.find((c) => !dealt.includes(c) && !board.includes(c)) as Card;
  for (const c of [burn(), f1, f2, f3]) dealt.push(c as Card);
  dealt.push(burn(), turn as Card);
  dealt.push(burn(), river as Card);
  return [...dealt, ...FULL_DECK.filter((c) => !dealt.includes(c))];
}

const chips = (g: Game) => g.seats.reduce((n, s) => n + (s?.stack ?? 0), 0) + (g.hand?.result?.rake ?? 0);

describe('hand ranking (the evaluator, on the classic examples)', () => {
  it('orders the ten categories and breaks ties by kickers', () => {
    const ranked = [
      ['As', 'Ks', 'Qs', 'Js', 'Ts'], // royal flush
      ['9h', '8h', '7h', '6h', '5h'], // straight flush
      ['Ac', 'Ad', 'Ah', 'As', '2c'], // four of a kind
      ['Kc', 'Kd', 'Kh', '3s', '3c'], // full house
      ['Ad', 'Jd', '9d', '6d', '3d'], // flush
      ['Tc', '9d', '8h', '7s', '6c'], // straight
      ['5c', '4d', '3h', '2s', 'Ac'], // the wheel: five-high straight
      ['Qc', 'Qd', 'Qh', '9s', '4c'], // three of a kind
      ['Jc', 'Jd', '4h', '4s', 'Ac'], // two pair, ace kicker
      ['Jh', 'Js', '4d', '4c', 'Kc'], // two pair, king kicker
      ['Tc', 'Td', 'Ah', '8s', '6c'], // one pair
      ['Ac', 'Qd', '9h', '7s', '3c'], // high card
      ['Ah', 'Qs', '9c', '7d', '2d'], // high card, lower last kicker
    ].map((cards) => evaluate({ holeCards: cards as never }));
    for (let i = 0; i + 1 < ranked.length; i++)
      expect(compare(ranked[i] as never, ranked[i + 1] as never), `hand ${i}`).toBe(-1);
    expect(
      compare(
        evaluate({ holeCards: ['Ts', '9s', '8d', '7c', '6h'] }),
        evaluate({ holeCards: ['Th', '9h', '8c', '7d', '6s'] }),
      ),
    ).toBe(0);
  });
});

describe("no-limit hold'em rules", () => {
  it('heads-up: the button posts the small blind and acts first before the flop, last after it', () => {
    let g = startHand(
      table([1_000, 1_000]),
      deck(
        [
          ['As', 'Ad'],
          ['Kc', 'Kd'],
        ],
        ['2c', '7h', '9s', 'Jd', '3h'],
      ),
    );
    expect(g.hand).toMatchObject({ button: 0, smallBlindSeat: 0, bigBlindSeat: 1, toAct: 0 });
    g = act(g, 0, { type: 'call' });
    expect(g.hand?.toAct).toBe(1);
    g = act(g, 1, { type: 'check' });
    expect(g.hand).toMatchObject({ street: 'flop', toAct: 1 });
    // The next hand moves the button.
    g = act(
      act(
        act(act(act(act(g, 1, { type: 'check' }), 0, { type: 'check' }), 1, { type: 'check' }), 0, {
          type: 'check',
        }),
        1,
        { type: 'check' },
      ),
      0,
      { type: 'check' },
    );
    expect(g.hand?.street).toBe('done');
    expect(g.seats.map((s) => s?.stack)).toEqual([1_010, 990]);
    g = startHand(g, FULL_DECK as Card[]);
    expect(g.hand).toMatchObject({ button: 1, smallBlindSeat: 1, bigBlindSeat: 0 });
  });

  it('enforces the minimum raise, and an all-in too small to raise does not reopen the betting', () => {
    let g = startHand(table([1_000, 1_000, 125]), FULL_DECK as Card[]);
    // Button 0, small blind 1, big blind 2; seat 0 acts first.
    expect(legalActions(g, 0)).toMatchObject({ toCall: 10, minRaiseTo: 20, maxRaiseTo: 1_000 });
    expect(() => act(g, 0, { type: 'raise', to: 15 })).toThrow(/raise to 15 outside 20..1000/);
    g = act(g, 0, { type: 'raise', to: 100 }); // a raise of 90
    expect(legalActions(g, 1)).toMatchObject({ minRaiseTo: 190 });
    g = act(g, 1, { type: 'call' });
    g = act(g, 2, { type: 'raise', to: 125 }); // all-in, 25 more: not a full raise
    expect(legalActions(g, 0)).toMatchObject({ toCall: 25, canRaise: false });
    expect(() => act(g, 0, { type: 'raise', to: 300 })).toThrow(/cannot raise/);
    g = act(g, 0, { type: 'call' });
    expect(legalActions(g, 1).canRaise).toBe(false);
  });

  it('splits three all-ins of different sizes into a main pot and two side pots', () => {
    // Seat 3 holds the best hand but has least; seat 1 the second best; seat 2 the third; seat 0 the worst.
    const holes = [
      ['2c', '7d'],
      ['Kc', 'Kd'],
      ['Qc', 'Qd'],
      ['Ac', 'Ad'],
    ];
    // Cards are dealt in seat order.
    let g = startHand(table([1_000, 300, 200, 100]), deck(holes, ['3s', '8h', '9d', 'Js', '4h']));
    // Button 0, blinds 1 and 2, seat 3 first.
    g = act(g, 3, { type: 'raise', to: 100 });
    g = act(g, 0, { type: 'raise', to: 1_000 });
    g = act(g, 1, { type: 'call' });
    g = act(g, 2, { type: 'call' });
    const result = g.hand?.result;
    expect(result?.pots.map((p) => [p.amount, p.eligible, p.winners])).toEqual([
      [400, [0, 1, 2, 3], [3]],
      [300, [0, 1, 2], [1]],
      [200, [0, 1], [1]],
      [700, [0], [0]],
    ]);
    expect(g.seats.map((s) => s?.stack)).toEqual([700, 500, 0, 400]);
    expect(chips(g)).toBe(1_600);
  });

  it('pays the blinds to the one player left when both blinds leave before anyone put a chip in', () => {
    // Found by the economy simulation: with no live player in for a chip there was no pot to
    // add the folded blinds to, and the 15 chips left the game with nobody.
    let g = startHand(table([300, 300, 300]), [...FULL_DECK]);
    expect(g.hand).toMatchObject({ button: 0, smallBlindSeat: 1, bigBlindSeat: 2, toAct: 0 });
    g = foldOut(g, 1);
    g = foldOut(g, 2);
    expect(g.hand?.street).toBe('done');
    expect(g.hand?.result?.pots.map((p) => [p.amount, p.winners])).toEqual([[15, [0]]]);
    expect(g.seats.map((s) => s?.stack)).toEqual([315, 295, 290]);
    expect(chips(g)).toBe(900);
  });

  it('calls a hand off: chips go back to the players still seated, and what a player who left put in is shared by those still in it', () => {
    let g = startHand(table([300, 300, 300]), [...FULL_DECK]);
    g = foldOut(g, 1);
    // Leaving: the service cashes out the folded small blind's 295 and empties the seat.
    g = { ...g, seats: g.seats.map((s, i) => (i === 1 ? null : s)) };
    g = cancelHand(g);
    expect(g.hand).toMatchObject({ street: 'done', toAct: null });
    // The forfeited 5: 3 to seat 2 (first left of the button), 2 to seat 0.
    expect(g.seats.map((s) => s?.stack ?? null)).toEqual([302, null, 303]);
    expect(chips(g) + 295).toBe(900);
  });

  it('splits a tied pot, the odd chip to the first winner left of the button', () => {
    // Everyone plays the board's straight.
    const holes = [
      ['2c', '3d'],
      ['2d', '3c'],
      ['4h', '4s'],
    ];
    const board = ['Ts', 'Jh', 'Qd', 'Kc', 'As'];
    let g = startHand(table([100, 100, 100]), deck(holes, board));
    g = act(g, 0, { type: 'call' });
    g = act(g, 1, { type: 'call' });
    g = act(g, 2, { type: 'check' });
    for (let street = 0; street < 3; street++)
      for (const seat of [1, 2, 0]) g = act(g, seat, { type: 'check' });
    expect(g.hand?.result?.pots[0]).toMatchObject({ amount: 30, shares: { 0: 10, 1: 10, 2: 10 } });
    // The small blind folds its 5: 25 between the button (seat 0) and the big blind (seat 2).
    g = startHand(table([100, 100, 100]), deck(holes, board));
    g = act(g, 0, { type: 'call' });
    g = act(g, 1, { type: 'fold' });
    g = act(g, 2, { type: 'check' });
    for (let street = 0; street < 3; street++) for (const seat of [2, 0]) g = act(g, seat, { type: 'check' });
    expect(g.hand?.result?.pots[0]).toMatchObject({ amount: 25, shares: { 0: 12, 2: 13 } });
    expect(chips(g)).toBe(300);
  });

  it('takes no rake without a flop, and the documented rake with one', () => {
    let g = startHand(table([1_000, 1_000], [5, 10], 5), FULL_DECK as Card[]);
    g = act(g, 0, { type: 'fold' });
    expect(g.hand?.result?.rake).toBe(0);
    g = startHand(
      g,
      deck(
        [
          ['As', 'Ad'],
          ['Kc', 'Kd'],
        ],
        ['2c', '7h', '9s', 'Jd', '3h'],
      ),
    );
    g = act(g, 1, { type: 'raise', to: 200 });
    g = act(g, 0, { type: 'call' });
    for (let street = 0; street < 3; street++) for (const seat of [0, 1]) g = act(g, seat, { type: 'check' });
    expect(g.hand?.result?.rake).toBe(20); // 5 % of 400
    expect(chips(g)).toBe(2_000);
  });

  it('refuses a press out of turn and a check facing a bet', () => {
    const g = startHand(table([100, 100, 100]), FULL_DECK as Card[]);
    expect(() => act(g, 1, { type: 'call' })).toThrow(/turn/);
    expect(() => act(g, 0, { type: 'check' })).toThrow(/cannot check/);
  });

  it('plays a seeded six-player game to the end: one player holds every chip, and none was made or lost on the way', () => {
    const rng = seededRng('six-player-game');
    const shuffled = () => {
      const d = [...FULL_DECK];
      for (let i = d.length - 1; i > 0; i--) {
        const j = rng.int(0, i + 1);
        [d[i], d[j]] = [d[j] as Card, d[i] as Card];
      }
      return d;
    };
    let g = table([500, 500, 500, 500, 500, 500], [10, 20]);
    let hands = 0;
    while (g.seats.filter((s) => s && s.stack > 0).length > 1) {
      g = startHand(g, shuffled());
      hands++;
      while (g.hand && g.hand.street !== 'done') {
        const seat = g.hand.toAct as number;
        const legal = legalActions(g, seat);
        const roll = rng.int(0, 100);
        const action: PokerAction =
          roll < 15 && !legal.canCheck
            ? { type: 'fold' }
            : roll < 75 || !legal.canRaise
              ? { type: legal.canCheck ? 'check' : 'call' }
              : { type: 'raise', to: roll < 95 ? legal.minRaiseTo : legal.maxRaiseTo };
        g = act(g, seat, action);
        expect(
          chips(g) +
            (g.hand?.street === 'done' ? 0 : (g.hand?.players.reduce((n, p) => n + p.total, 0) ?? 0)),
        ).toBe(3_000);
      }
      expect(hands).toBeLessThan(2_000);
    }
    expect(g.seats.map((s) => s?.stack ?? 0).sort((a, b) => b - a)).toEqual([3_000, 0, 0, 0, 0, 0]);
  });
});
