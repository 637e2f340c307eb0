import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { boardMessage } from '../../commands/poker/board.js';
import { handText } from '../../commands/poker/boardText.js';
import { I18n, type Locale } from '../../src/i18n/i18n.js';
import { act, type Card, FULL_DECK, type Game, MAX_SEATS, startHand } from '../../utils/poker/engine.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';

const i18n = new I18n(ASSEMBLY.messages);
const TIMING = { turnS: 60, nextS: 5, startS: 60, idleS: 900 };
const NOW = new Date('2026-03-01T12:00:00Z');

function game(stacks: number[]): Game {
  return {
    seats: Array.from({ length: MAX_SEATS }, (_, i) =>
      stacks[i] === undefined ? null : { userId: `p${i}`, stack: stacks[i] as number },
    ),
    button: -1,
    smallBlind: 5,
    bigBlind: 10,
    rakePct: 0,
    rakeCap: 0,
    hand: null,
    handsPlayed: 0,
  };
}

function table(g: Game, status: TableDoc['status'] = 'playing'): TableDoc {
  return {
    _id: 'tbl',
    hostId: 'p0',
    channelId: null,
    messageId: null,
    locale: 'en',
    status,
    game: g,
    minBuyIn: 200,
    maxBuyIn: 400,
    version: 1,
    step: 1,
    pending: [],
    chips: { in: 0, out: 0, rake: 0 },
    sittings: [],
    createdAt: NOW,
    lastActionAt: NOW,
    stepAt: NOW,
  };
}

/** A deck dealing `holes` (one card each, two rounds, in seat order) and then `board`, with burn cards. */
function deck(holes: Card[][], board: Card[]): Card[] {
  const dealt: Card[] = [];
  for (let round = 0; round < 2; round++) for (const h of holes) dealt.push(h[round] as Card);
  const burn = () => FULL_DECK.find((c) => !dealt.includes(c) && !board.includes(c)) as Card;
  const [f1, f2, f3, turn, river] = board as [Card, Card, Card, Card, Card];
  dealt.push(burn(), f1, f2, f3, burn(), turn, burn(), river);
  return [...dealt, ...FULL_DECK.filter((c) => !dealt.includes(c))];
}

const text = (t: TableDoc, locale: Locale = 'en') =>
  boardMessage(t, i18n.for(locale), TIMING).embeds?.[0]?.description ?? '';

describe('hand names (the evaluator ranks, the board names)', () => {
  it.each([
    [1, ['5s', '5d', 'Kc', 'Jc', '9s'], 'pair of fives', 'ein Paar Fünfen'],
    [2, ['Ks', 'Kc', '7d', '7h', 'Jc'], 'two pair, kings and sevens', 'zwei Paare, Könige und Siebenen'],
    [5, ['Ah', 'Kh', '7h', '4h', '2h'], 'flush, ace high', 'Flush mit Ass hoch'],
    [4, ['5d', '4d', '3h', '2c', 'As'], 'straight, five high', 'Straße mit Fünf hoch'],
    [
      6,
      ['Ks', 'Kd', 'Kc', '3h', '3d'],
      'full house, kings full of threes',
      'Full House, drei Könige und zwei Dreien',
    ],
    [3, ['Qs', 'Qd', 'Qc', '9h', '3d'], 'three of a kind, queens', 'Drilling, drei Damen'],
    [7, ['As', 'Ad', 'Ac', 'Ah', '3d'], 'four of a kind, aces', 'Vierling, vier Asse'],
    [0, ['Ac', 'Qd', '9h', '7s', '3c'], 'ace high', 'Ass hoch'],
    [8, ['9h', '8h', '7h', '6h', '5h'], 'straight flush, nine high', 'Straight Flush mit Neun hoch'],
    [9, ['Ah', 'Kh', 'Qh', 'Jh', 'Th'], 'royal flush', 'Royal Flush'],
  ])('GIVEN strength %i %j THEN it is "%s" and "%s"', (strength, best, en, de) => {
    expect(handText(strength, best, i18n.for('en'))).toBe(en);
    expect(handText(strength, best, i18n.for('de'))).toBe(de);
  });
});

describe('the board', () => {
  it('GIVEN a showdown THEN every remaining player shows their hole cards and the full name of the hand, in English and German', () => {
    let g = startHand(
      game([500, 500]),
      deck(
        [
          ['5s', '5d'],
          ['Ks', '7d'],
        ],
        ['Kc', '7h', '2d', '9s', 'Jc'],
      ),
    );
    g = act(g, 0, { type: 'call' });
    g = act(g, 1, { type: 'check' });
    for (let street = 0; street < 3; street++) {
      g = act(g, 1, { type: 'check' });
      g = act(g, 0, { type: 'check' });
    }
    expect(g.hand?.street).toBe('done');
    const en = text(table(g));
    expect(en).toContain('🏆 <@p1> wins the pot of 20');
    expect(en).toContain('<@p0> shows **5♠ 5♦**: pair of fives (5♠ 5♦ K♣ J♣ 9♠)');
    expect(en).toContain('<@p1> shows **K♠ 7♦**: two pair, kings and sevens');
    const de = text(table(g), 'de');
    expect(de).toContain('🏆 <@p1> gewinnt den Pot von 20');
    expect(de).toContain('<@p0> zeigt **5♠ 5♦**: ein Paar Fünfen');
    expect(de).toContain('<@p1> zeigt **K♠ 7♦**: zwei Paare, Könige und Siebenen');
    // The next hand keeps the last one's result on the board, in small print.
    const next = text(table(startHand(g, [...FULL_DECK])));
    expect(next).toContain('-# Hand 1: 🏆 <@p1> wins the pot of 20\n-# <@p0> shows **5♠ 5♦**: pair of fives');
  });

  it('GIVEN a split pot THEN the winners split it, in real plurals', () => {
    let g = startHand(
      game([500, 500]),
      deck(
        [
          ['2s', '3d'],
          ['2d', '3s'],
        ],
        ['Ac', 'Kh', 'Qd', 'Js', 'Tc'],
      ),
    );
    g = act(act(g, 0, { type: 'call' }), 1, { type: 'check' });
    for (let street = 0; street < 3; street++) g = act(act(g, 1, { type: 'check' }), 0, { type: 'check' });
    expect(text(table(g))).toContain('🏆 <@p0>, <@p1> split the pot of 20');
    expect(text(table(g), 'de')).toContain('🏆 <@p0>, <@p1> teilen sich den Pot von 20');
  });

  it('GIVEN the player to act THEN the board says what the clock will do: a check when free, a fold facing a bet', () => {
    let g = startHand(game([500, 500]), [...FULL_DECK]);
    // Heads-up: the button (small blind) faces the big blind.
    expect(text(table(g))).toContain('<@p0> to act · auto-fold <t:1772366460:R>');
    expect(text(table(g), 'de')).toContain('<@p0> ist dran · sonst automatisch Fold <t:1772366460:R>');
    g = act(g, 0, { type: 'call' });
    expect(text(table(g))).toContain('<@p1> to act · auto-check <t:1772366460:R>');
    expect(text(table(g), 'de')).toContain('<@p1> ist dran · sonst automatisch Check');
    expect(text(table(g))).not.toMatch(/then check, or fold/);
  });

  it('GIVEN an open table THEN it says once who starts the first hand and when it starts by itself, and never "next hand"', () => {
    const empty = text(table(game([]), 'open'));
    expect(empty).toContain('Sit down with a buy-in of 200 🍪 to 400 🍪');
    expect(empty).toContain(
      'Once two players sit, <@p0> starts the first hand with Start; otherwise it starts by itself 60 seconds after the second player sat down.',
    );
    const ready = text(table(game([300, 300]), 'open'));
    expect(ready).toContain('<@p0> can start the first hand now with Start');
    expect(text(table(game([300, 300]), 'open'), 'de')).toContain(
      '<@p0> kann die erste Hand jetzt mit „Starten“ beginnen. Sonst beginnt sie von selbst 60 Sekunden, nachdem sich der zweite Spieler gesetzt hat.',
    );
    for (const board of [empty, ready]) expect(board).not.toMatch(/next hand/i);
  });

  it('GIVEN a hand just over THEN the board says when the next deals itself, and not who starts the first', () => {
    let g = startHand(game([500, 500]), [...FULL_DECK]);
    g = act(g, 0, { type: 'fold' });
    const en = text(table(g));
    expect(en).toContain('The next hand deals itself <t:1772366405:R>.');
    expect(en).not.toMatch(/first hand/);
    expect(text(table(g), 'de')).toContain('Die nächste Hand wird <t:1772366405:R> von selbst ausgeteilt.');
  });

  it('GIVEN a hand won without a showdown THEN the next hand keeps its result but none of its hole cards', () => {
    const g = act(startHand(game([500, 500]), [...FULL_DECK]), 0, { type: 'fold' });
    const next = startHand(g, [...FULL_DECK]);
    expect(next.previous?.result?.pots[0]?.winners).toEqual([1]);
    expect(next.previous?.players.map((p) => p.hole)).toEqual([[], []]);
    expect(next.previous?.deck).toEqual([]);
    expect(text(table(next))).toContain('-# Hand 1: 🏆 <@p1> wins the pot of 15');
  });

  it('GIVEN a stack of one chip THEN it says "1 chip"', () => {
    expect(text(table(game([1, 300]), 'open'))).toContain('<@p0> 1 chip');
    expect(text(table(game([1, 300]), 'open'), 'de')).toContain('<@p0> 1 Chip');
  });
});

describe("the board's buttons", () => {
  const labels = (t: TableDoc, locale: Locale = 'en') =>
    (boardMessage(t, i18n.for(locale), TIMING).buttons ?? []).map((b) => b.label);

  it('GIVEN a player facing the big blind THEN the buttons name their chips, with no Check, and fit two rows', () => {
    const g = startHand(game([500, 500, 500]), [...FULL_DECK]);
    const en = labels(table(g));
    expect(en).toEqual([
      'Fold',
      'Call 10',
      'Raise to 20',
      'Pot 35',
      'All-in 500',
      'Raise…',
      'My cards',
      'Leave',
    ]);
    expect(labels(table(g), 'de')).toEqual([
      'Fold',
      'Call 10',
      'Raise auf 20',
      'Pot 35',
      'All-in 500',
      'Raise…',
      'Meine Karten',
      'Aufstehen',
    ]);
    expect(en.length).toBeLessThanOrEqual(10);
  });

  it('GIVEN a player free to check after the flop THEN there is Check and a bet, but no Fold and no Call', () => {
    let g = startHand(game([500, 500]), [...FULL_DECK]);
    g = act(act(g, 0, { type: 'call' }), 1, { type: 'check' });
    expect(g.hand?.street).toBe('flop');
    expect(labels(table(g))).toEqual([
      'Check',
      'Bet 10',
      'Pot 20',
      'All-in 490',
      'Raise…',
      'My cards',
      'Leave',
    ]);
  });

  it('GIVEN a player whose call takes every chip THEN there is no raise, only Fold and an all-in call', () => {
    let g = startHand(game([500, 100]), [...FULL_DECK]);
    g = act(g, 0, { type: 'raise', to: 500 });
    expect(labels(table(g))).toEqual(['Fold', 'Call 90 (all-in)', 'My cards', 'Leave']);
  });

  it('GIVEN a table between hands THEN no betting buttons: the buy-ins while a seat is free, Leave and Close; Start only for a first hand', () => {
    const done = act(startHand(game([500, 500]), [...FULL_DECK]), 0, { type: 'fold' });
    expect(labels(table(done))).toEqual(['Sit 200', 'Sit 300', 'Sit 400', 'Sit…', 'Leave', 'Close']);
    expect(labels(table(game([300, 300]), 'open'))).toEqual([
      'Sit 200',
      'Sit 300',
      'Sit 400',
      'Sit…',
      'Start',
      'Leave',
      'Close',
    ]);
    expect(labels(table(game([]), 'open'))).toEqual(['Sit 200', 'Sit 300', 'Sit 400', 'Sit…', 'Close']);
    const full = table(game(Array.from({ length: MAX_SEATS }, () => 300)), 'open');
    expect(labels(full)).toEqual(['Start', 'Leave', 'Close']);
  });

  it('GIVEN a table paused after two hands nobody played THEN it says so, when it closes, and offers Deal (in English and German)', () => {
    const done = act(startHand(game([500, 500]), [...FULL_DECK]), 0, { type: 'fold', timedOut: true });
    const paused = { ...table(done), quietHands: 2 };
    expect(labels(paused)).toEqual(['Sit 200', 'Sit 300', 'Sit 400', 'Sit…', 'Deal', 'Leave', 'Close']);
    expect(labels(paused, 'de')).toContain('Austeilen');
    expect(text(paused)).toContain(
      '⏸️ Paused: nobody played the last 2 hands. Deal plays on; otherwise the table closes <t:1772367300:R>.',
    );
    expect(text(paused)).not.toContain('deals itself');
    expect(text(paused, 'de')).toContain('⏸️ Pause: In den letzten 2 Händen hat niemand mitgespielt.');
  });

  it('GIVEN a hand that left a player without chips THEN the board says they are out', () => {
    const done = act(startHand(game([500, 500]), [...FULL_DECK]), 0, { type: 'fold' });
    const out = { ...done, hand: { ...(done.hand as NonNullable<Game['hand']>), out: ['p0'] } };
    expect(text(table(out))).toContain('🪑 <@p0> is out of chips and stands up.');
    expect(text(table(out), 'de')).toContain('🪑 <@p0> hat keine Chips mehr und steht auf.');
  });
});
