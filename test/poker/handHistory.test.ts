import { type ParsedHand, parseHand } from 'hhp';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  act,
  type Card,
  FULL_DECK,
  type Game,
  MAX_SEATS,
  type PokerAction,
  startHand,
} from '../../utils/poker/engine.js';
import { type HandRecord, handRecordOf } from '../../utils/poker/handRecord.js';
import { HAND_PLAYERS, HANDS, HandStore } from '../../utils/poker/handStore.js';
import { pokerStarsText } from '../../utils/poker/pokerStars.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('poker_hands');
const NAMES = new Map([
  ['p0', 'Ann'],
  ['p1', 'Ben'],
  ['p2', 'Cal'],
]);
const DEALT = new Date('2026-03-01T17:04:05Z');
const ENDED = new Date('2026-03-01T17:06:00Z');

/** A deck dealing `holes` (two rounds in seat order) and then `board`, with burn cards between. */
function deck(holes: Card[][], board: Card[]): Card[] {
  const dealt: Card[] = [];
  for (let round = 0; round < 2; round++) for (const h of holes) dealt.push(h[round] as Card);
  const burn = () => FULL_DECK.find((c) => !dealt.includes(c) && !board.includes(c)) as Card;
  const [f1, f2, f3, turn, river] = board as [Card, Card, Card, Card, Card];
  dealt.push(burn(), f1, f2, f3, burn(), turn, burn(), river);
  return [...dealt, ...FULL_DECK.filter((c) => !dealt.includes(c))];
}

/**
 * One hand at a 5/10 table of seats p0, p1, p2 (button p0, blinds p1 and p2), played by
 * `script`, as the table stores it once the hand has ended.
 */
function played(
  tableId: string,
  stacks: number[],
  holes: Card[][],
  board: Card[],
  script: [number, PokerAction][],
): TableDoc {
  let game: Game = {
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
  game = startHand(game, deck(holes, board));
  for (const [seat, action] of script) game = act(game, seat, action);
  expect(game.hand?.street).toBe('done');
  return {
    _id: tableId,
    hostId: 'p0',
    channelId: 'c1',
    guildId: 'g1',
    messageId: null,
    locale: 'en',
    status: 'playing',
    game,
    minBuyIn: 200,
    maxBuyIn: 1000,
    version: 9,
    step: 9,
    pending: [],
    chips: { in: 0, out: 0, rake: 0 },
    sittings: [],
    createdAt: DEALT,
    lastActionAt: ENDED,
    stepAt: ENDED,
    dealtAt: DEALT,
  };
}

/** A showdown with a side pot: Cal all-in for the main pot, Ben's river bet goes back uncalled. */
const sidePot = () =>
  played(
    '1400000000000000001',
    [1000, 1000, 200],
    [
      ['7c', '2d'],
      ['Kh', 'Kd'],
      ['Ah', 'As'],
    ],
    ['3c', '8d', '9s', 'Jh', '4c'],
    [
      [0, { type: 'raise', to: 30 }],
      [1, { type: 'call' }],
      [2, { type: 'raise', to: 200 }],
      [0, { type: 'call' }],
      [1, { type: 'call' }],
      [1, { type: 'raise', to: 200 }],
      [0, { type: 'call' }],
      [1, { type: 'check' }],
      [0, { type: 'check' }],
      [1, { type: 'raise', to: 200 }],
      [0, { type: 'fold' }],
    ],
  );

/** Won by folds before the flop: Ann's raise is called by nobody. */
const folds = () =>
  played(
    '1400000000000000002',
    [1000, 1000, 1000],
    [
      ['9c', '9d'],
      ['5h', '2c'],
      ['Jd', '3s'],
    ],
    ['2h', '3h', '4h', '5s', '6s'],
    [
      [0, { type: 'raise', to: 30 }],
      [1, { type: 'fold' }],
      [2, { type: 'fold' }],
    ],
  );

/** An all-in called for less: the rest goes back to Ann, the board runs out, queens hold. */
const allIn = () =>
  played(
    '1400000000000000003',
    [300, 1000, 150],
    [
      ['Qs', 'Qh'],
      ['2c', '3d'],
      ['Jc', 'Td'],
    ],
    ['4h', '7s', '9c', 'Kd', '2s'],
    [
      [0, { type: 'raise', to: 300 }],
      [1, { type: 'fold' }],
      [2, { type: 'call' }],
    ],
  );

const recordOf = (table: TableDoc) => handRecordOf(table) as HandRecord;

/**
 * hhp reads the header of real-money cash games only (`($5/$10)`); PokerStars writes play-money
 * ones, as chips without a currency, like this bot (`(5/10)`). Only the header's blinds get a
 * sign before hhp reads the hand; every other line is read as written.
 */
function parsed(hand: HandRecord, hero: string): ParsedHand {
  const text = pokerStarsText(hand, NAMES, hero).replace(/\((\d+)\/(\d+)\)/, '($$$1/$$$2)');
  const result = parseHand(text);
  expect(result, text).toBeDefined();
  return result as ParsedHand;
}

/** A parsed set of cards without the parser's line numbers. */
const cardsOf = (cards: object | undefined) =>
  cards && Object.fromEntries(Object.entries(cards).filter(([k]) => k.startsWith('card')));

const moves = (actions: ParsedHand['preflop']) =>
  actions.map((a) => ({
    player: a.player,
    type: a.type,
    ...(a.amount !== undefined ? { amount: a.amount } : {}),
    ...(a.raiseTo !== undefined ? { raiseTo: a.raiseTo } : {}),
    ...(a.allin ? { allin: true } : {}),
  }));

describe('a poker hand as a PokerStars hand history', () => {
  it('GIVEN a showdown with a side pot WHEN it is exported and parsed by hhp THEN the players, actions, board and winners are the ones played', () => {
    const hand = parsed(recordOf(sidePot()), 'p1');
    expect(hand.info).toMatchObject({
      room: 'pokerstars',
      pokertype: 'holdem',
      limit: 'nolimit',
      sb: 5,
      bb: 10,
    });
    expect(hand.table).toMatchObject({ maxseats: 9, button: 1 });
    expect(hand.seats.map(({ seatno, player, chips }) => ({ seatno, player, chips }))).toEqual([
      { seatno: 1, player: 'Ann', chips: 1000 },
      { seatno: 2, player: 'Ben', chips: 1000 },
      { seatno: 3, player: 'Cal', chips: 200 },
    ]);
    expect(hand.posts.map(({ player, type, amount }) => ({ player, type, amount }))).toEqual([
      { player: 'Ben', type: 'sb', amount: 5 },
      { player: 'Cal', type: 'bb', amount: 10 },
    ]);
    expect(hand.hero).toBe('Ben');
    expect(cardsOf(hand.holecards)).toEqual({ card1: 'Kh', card2: 'Kd' });
    expect(moves(hand.preflop)).toEqual([
      { player: 'Ann', type: 'raise', amount: 20, raiseTo: 30 },
      { player: 'Ben', type: 'call', amount: 25 },
      { player: 'Cal', type: 'raise', amount: 170, raiseTo: 200, allin: true },
      { player: 'Ann', type: 'call', amount: 170 },
      { player: 'Ben', type: 'call', amount: 170 },
    ]);
    expect(moves(hand.flop)).toEqual([
      { player: 'Ben', type: 'bet', amount: 200 },
      { player: 'Ann', type: 'call', amount: 200 },
    ]);
    expect(moves(hand.turn)).toEqual([
      { player: 'Ben', type: 'check' },
      { player: 'Ann', type: 'check' },
    ]);
    expect(moves(hand.river)).toEqual([
      { player: 'Ben', type: 'bet', amount: 200 },
      { player: 'Ann', type: 'fold' },
      { player: 'Ben', type: 'bet-returned', amount: 200 },
    ]);
    expect(cardsOf(hand.board)).toEqual({ card1: '3c', card2: '8d', card3: '9s', card4: 'Jh', card5: '4c' });
    expect(hand.showdown.filter((a) => a.type === 'show').map((a) => [a.player, a.card1, a.card2])).toEqual([
      ['Ben', 'Kh', 'Kd'],
      ['Cal', 'Ah', 'As'],
    ]);
    expect(hand.showdown.filter((a) => a.type === 'collect').map((a) => [a.player, a.amount])).toEqual([
      ['Cal', 600],
      ['Ben', 400],
    ]);
    expect(hand.summary.find((s) => s.type === 'pot')).toMatchObject({ amount: 1000, rake: 0 });
  });

  it('GIVEN a hand won by folds THEN the raise nobody called goes back and the pot is collected without a showdown', () => {
    const hand = parsed(recordOf(folds()), 'p0');
    expect(cardsOf(hand.holecards)).toEqual({ card1: '9c', card2: '9d' });
    expect(moves(hand.preflop)).toEqual([
      { player: 'Ann', type: 'raise', amount: 20, raiseTo: 30 },
      { player: 'Ben', type: 'fold' },
      { player: 'Cal', type: 'fold' },
      { player: 'Ann', type: 'bet-returned', amount: 20 },
      { player: 'Ann', type: 'collect', amount: 25 },
    ]);
    expect(hand.board).toBeUndefined();
    expect(hand.showdown).toEqual([]);
    expect(hand.summary.filter((s) => s.type === 'collected').map((s) => [s.player, s.amount])).toEqual([
      ['Ann', 25],
    ]);
  });

  it('GIVEN an all-in called for less THEN the rest goes back, the board runs out and the winner shows down', () => {
    const hand = parsed(recordOf(allIn()), 'p2');
    expect(moves(hand.preflop)).toEqual([
      { player: 'Ann', type: 'raise', amount: 290, raiseTo: 300, allin: true },
      { player: 'Ben', type: 'fold' },
      { player: 'Cal', type: 'call', amount: 140, allin: true },
      { player: 'Ann', type: 'bet-returned', amount: 150 },
    ]);
    expect(cardsOf(hand.board)).toEqual({ card1: '4h', card2: '7s', card3: '9c', card4: 'Kd', card5: '2s' });
    expect(hand.showdown.filter((a) => a.type === 'collect').map((a) => [a.player, a.amount])).toEqual([
      ['Ann', 305],
    ]);
    // Only the hero's cards are dealt face up; the others' only as they were shown down.
    expect(cardsOf(hand.holecards)).toEqual({ card1: 'Jc', card2: 'Td' });
    expect(pokerStarsText(recordOf(allIn()), NAMES, 'p2')).not.toContain('2c 3d');
  });

  it('GIVEN a sit-and-go hand THEN its header names the tournament, its buy-in and level, and hhp reads it', () => {
    const hand = { ...recordOf(folds()), tournament: { buyIn: 100, level: 14 } };
    const text = pokerStarsText(hand, NAMES, 'p0');
    expect(text.split('\n')[0]).toMatch(
      /^PokerStars Hand #\d+: Tournament #1400000000000000002, 100\+0 Hold'em No Limit - Level XIV \(5\/10\) - /,
    );
    // As for a cash game, hhp reads real-money buy-ins only: the header's gets a sign.
    const read = parseHand(text.replace(/, (\d+)\+(\d+) /, ', $$$1+$$$2 USD ')) as ParsedHand;
    expect(read.info).toMatchObject({
      room: 'pokerstars',
      gametype: 'tournament',
      gameno: '1400000000000000002',
      level: 'xiv',
      sb: 5,
      bb: 10,
    });
    expect(moves(read.preflop).slice(0, 3)).toEqual([
      { player: 'Ann', type: 'raise', amount: 20, raiseTo: 30 },
      { player: 'Ben', type: 'fold' },
      { player: 'Cal', type: 'fold' },
    ]);
  });
});

describe('the hands kept, and what they add up to', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN the same hand finished twice at once by two writers THEN it is recorded once, with one row per player', async () => {
    const record = recordOf(folds());
    const [a, b] = [new HandStore(t.db), new HandStore(t.db)];
    await Promise.all([a.record(record), b.record(record), a.record(record)]);
    await b.record(record);
    expect(await t.db.collection(HANDS).countDocuments({})).toBe(1);
    expect(await t.db.collection(HAND_PLAYERS).countDocuments({})).toBe(3);
    expect(await a.has(record._id)).toBe(true);
  });

  it('GIVEN three scripted hands THEN hands, VPIP, net, biggest pot and the server board add up to what was played', async () => {
    const store = new HandStore(t.db);
    for (const table of [sidePot(), folds(), allIn()]) await store.record(recordOf(table));
    // Ann: −400 (folded the river), +15 (her raise back, the blinds won), +155 (all-in won).
    expect(await store.statsOf('p0')).toEqual({ hands: 3, vpipHands: 3, net: -230, biggestPot: 305 });
    // Ben: ±0 (the side pot won, the main lost), −5 and −5 (his small blind folded).
    expect(await store.statsOf('p1')).toEqual({ hands: 3, vpipHands: 1, net: -10, biggestPot: 400 });
    // Cal: +400 (the main pot), −10 (his big blind), −150 (his all-in lost): a blind is not VPIP.
    expect(await store.statsOf('p2')).toEqual({ hands: 3, vpipHands: 2, net: 240, biggestPot: 600 });
    expect(await store.statsOf('nobody')).toEqual({ hands: 0, vpipHands: 0, net: 0, biggestPot: 0 });
    expect(await store.board('g1', 10)).toEqual([
      { userId: 'p2', net: 240, hands: 3 },
      { userId: 'p1', net: -10, hands: 3 },
      { userId: 'p0', net: -230, hands: 3 },
    ]);
    expect(await store.board('other', 10)).toEqual([]);
    const last = await store.lastOf('p0', 2);
    expect(last.map((h) => h.hand.number)).toHaveLength(2);
  });
});
