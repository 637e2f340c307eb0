import type { Card } from './cards.js';
import { type HandName, handName } from './handNames.js';
import type { BettingStreet, HandAction, HandRecord, HandSeat } from './handRecord.js';

/*
 * A hand's record as a PokerStars hand history, the text trackers and replayers read: the
 * header of a play-money cash game (chips are Cookies, whole numbers, so no currency), seats
 * numbered from 1, the blinds, the hero's hole cards, every action street by street, the
 * showdown and the summary. Hole cards are written only for the hero and for hands shown down.
 * The file is in English whatever the reader's language, as PokerStars writes it.
 */

/** A hand's number as PokerStars writes it: digits only, unique per table and hand. */
export function pokerStarsNumber(hand: Pick<HandRecord, 'tableId' | 'number'>): string {
  return `${tableNumber(hand.tableId)}${String(hand.number).padStart(5, '0')}`;
}

/** A table's id as the digits a history's numbers are made of. */
function tableNumber(tableId: string): string {
  return /^\d+$/.test(tableId) ? tableId : String(fnv1a(tableId));
}

/** A tournament level as PokerStars numbers it: I, II, …, XIV. */
function roman(n: number): string {
  const digits: [number, string][] = [
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let rest = n;
  let text = '';
  for (const [value, letters] of digits) {
    while (rest >= value) {
      text += letters;
      rest -= value;
    }
  }
  return text;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return h;
}

/** A name a history's lines can carry: no colon, brackets or parentheses, no line break. */
export function playerName(name: string): string {
  const clean = name
    .replace(/[:()[\]\r\n\t]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > 0 ? clean.slice(0, 40) : 'player';
}

/** The date as PokerStars writes it, in New York time ("2026/12/06 9:20:14 ET"). */
export function easternTime(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}/${parts.month}/${parts.day} ${Number(parts.hour)}:${parts.minute}:${parts.second} ET`;
}

const STREET_TITLE: Record<Exclude<BettingStreet, 'preflop'>, string> = {
  flop: 'FLOP',
  turn: 'TURN',
  river: 'RIVER',
};

/**
 * The hand as PokerStars text. `names`: each member's name in the file (one per member, told
 * apart when two share one); `hero`: whose hole cards are dealt face up (null: nobody's).
 */
export function pokerStarsText(
  hand: HandRecord,
  names: ReadonlyMap<string, string>,
  hero: string | null,
): string {
  const name = uniqueNames(hand.seats, names);
  const nameOf = (seat: number) => name.get(seat) ?? `Seat ${seat + 1}`;
  const stakes = `(${hand.smallBlind}/${hand.bigBlind})`;
  // A tournament's hand names its tournament, buy-in and level, as PokerStars writes them.
  const game = hand.tournament
    ? `Tournament #${tableNumber(hand.tableId)}, ${hand.tournament.buyIn}+0 Hold'em No Limit - Level ${roman(hand.tournament.level)} ${stakes}`
    : ` Hold'em No Limit ${stakes}`;
  const lines = [
    `PokerStars Hand #${pokerStarsNumber(hand)}: ${game} - ${easternTime(hand.startedAt)}`,
    `Table '${playerName(hand.tableId).replace(/'/g, '')}' ${hand.seatsAtTable}-max Seat #${hand.button + 1} is the button`,
    ...hand.seats.map((s) => `Seat ${s.seat + 1}: ${nameOf(s.seat)} (${s.stack} in chips)`),
  ];
  const [blinds, decisions] = [
    hand.actions.filter((a) => a.what === 'small blind' || a.what === 'big blind'),
    hand.actions.filter((a) => a.what !== 'small blind' && a.what !== 'big blind'),
  ];
  for (const a of blinds)
    lines.push(`${nameOf(a.seat)}: posts ${a.what} ${a.amount}${a.allIn ? ' and is all-in' : ''}`);
  lines.push('*** HOLE CARDS ***');
  const heroSeat = hand.seats.find((s) => s.userId === hero);
  if (heroSeat && heroSeat.hole.length === 2)
    lines.push(`Dealt to ${nameOf(heroSeat.seat)} ${cards(heroSeat.hole)}`);
  lines.push(...bettingLines(hand, decisions, nameOf));
  lines.push(...endLines(hand, nameOf));
  return `${lines.join('\n')}\n`;
}

/** Several hands, one after the other, as PokerStars separates them in a file. */
export function pokerStarsFile(
  hands: readonly HandRecord[],
  names: ReadonlyMap<string, string>,
  hero: string | null,
) {
  return hands.map((h) => pokerStarsText(h, names, hero)).join('\n\n');
}

function uniqueNames(seats: readonly HandSeat[], names: ReadonlyMap<string, string>): Map<number, string> {
  const out = new Map<number, string>();
  const taken = new Set<string>();
  for (const s of seats) {
    let n = playerName(names.get(s.userId) ?? s.userId);
    if (taken.has(n)) n = `${n} ${s.userId.slice(-4)}`;
    while (taken.has(n)) n = `${n}'`;
    taken.add(n);
    out.set(s.seat, n);
  }
  return out;
}

const cards = (cs: readonly Card[]) => `[${cs.join(' ')}]`;

/** The decisions street by street, each street's board, and the bet nobody called going back. */
function bettingLines(hand: HandRecord, decisions: HandAction[], nameOf: (seat: number) => string): string[] {
  const lines: string[] = [];
  let currentBet = hand.bigBlind;
  let street: BettingStreet = 'preflop';
  const boardAt = { flop: 3, turn: 4, river: 5 } as const;
  const openStreet = (next: Exclude<BettingStreet, 'preflop'>) => {
    street = next;
    currentBet = 0;
    const shown = hand.board.slice(0, boardAt[next]);
    const title = `*** ${STREET_TITLE[next]} ***`;
    lines.push(
      next === 'flop'
        ? `${title} ${cards(shown)}`
        : `${title} ${cards(shown.slice(0, -1))} ${cards(shown.slice(-1))}`,
    );
  };
  const streetsUpTo = (to: BettingStreet) => {
    for (const next of ['flop', 'turn', 'river'] as const) {
      if (boardAt[next] > hand.board.length) break;
      if (order(next) <= order(street) || order(next) > order(to)) continue;
      openStreet(next);
    }
  };
  for (const a of decisions) {
    streetsUpTo(a.street);
    lines.push(`${nameOf(a.seat)}: ${actionText(a, currentBet)}`);
    if ((a.what === 'bet' || a.what === 'raise') && a.amount !== undefined) currentBet = a.amount;
  }
  const uncalled = hand.seats.find((s) => s.returned > 0);
  if (uncalled && !hand.calledOff)
    lines.push(`Uncalled bet (${uncalled.returned}) returned to ${nameOf(uncalled.seat)}`);
  // A board run out after the last action (everyone all-in).
  streetsUpTo('river');
  return lines;
}

const order = (s: BettingStreet) => ['preflop', 'flop', 'turn', 'river'].indexOf(s);

function actionText(a: HandAction, currentBet: number): string {
  const allIn = a.allIn ? ' and is all-in' : '';
  const timedOut = a.timedOut ? ' (timed out)' : '';
  switch (a.what) {
    case 'fold':
      return `folds${timedOut}`;
    case 'check':
      return `checks${timedOut}`;
    case 'call':
      return `calls ${a.amount}${allIn}`;
    case 'bet':
      return `bets ${a.amount}${allIn}`;
    case 'raise':
      return `raises ${(a.amount ?? 0) - currentBet} to ${a.amount}${allIn}`;
    default:
      return a.what;
  }
}

/** The showdown, who collected what, and the summary. */
function endLines(hand: HandRecord, nameOf: (seat: number) => string): string[] {
  const lines: string[] = [];
  const shown = new Map(hand.shown.map((s) => [s.seat, s]));
  const hole = (seat: number) => hand.seats.find((s) => s.seat === seat)?.hole ?? [];
  if (hand.shown.length > 0) {
    lines.push('*** SHOW DOWN ***');
    for (const s of hand.shown)
      lines.push(`${nameOf(s.seat)}: shows ${cards(hole(s.seat))} (${described(s)})`);
  }
  const potName = (i: number) =>
    hand.pots.length === 1
      ? 'pot'
      : i === 0
        ? 'main pot'
        : hand.pots.length === 2
          ? 'side pot'
          : `side pot-${i}`;
  hand.pots.forEach((pot, i) => {
    for (const [seat, amount] of Object.entries(pot.shares))
      lines.push(`${nameOf(Number(seat))} collected ${amount} from ${potName(i)}`);
  });
  if (hand.calledOff) lines.push('Hand cancelled');
  lines.push('*** SUMMARY ***');
  const total = hand.pots.reduce((sum, p) => sum + p.amount, 0) + hand.rake;
  const split =
    hand.pots.length > 1
      ? ` Main pot ${hand.pots[0]?.amount}.${hand.pots
          .slice(1)
          .map((p, i) => ` Side pot${hand.pots.length > 2 ? `-${i + 1}` : ''} ${p.amount}.`)
          .join('')}`
      : '';
  lines.push(`Total pot ${total}${split} | Rake ${hand.rake}`);
  if (hand.board.length > 0) lines.push(`Board ${cards(hand.board)}`);
  for (const s of hand.seats) lines.push(summaryLine(hand, s, nameOf(s.seat), shown.get(s.seat)));
  return lines;
}

function summaryLine(
  hand: HandRecord,
  s: HandSeat,
  name: string,
  shown: HandRecord['shown'][number] | undefined,
): string {
  const role = [
    s.seat === hand.button ? ' (button)' : '',
    s.seat === hand.smallBlindSeat ? ' (small blind)' : '',
    s.seat === hand.bigBlindSeat ? ' (big blind)' : '',
  ].join('');
  const head = `Seat ${s.seat + 1}: ${name}${role}`;
  const folded = hand.actions.find((a) => a.seat === s.seat && a.what === 'fold');
  if (folded) {
    const where = { preflop: 'before Flop', flop: 'on the Flop', turn: 'on the Turn', river: 'on the River' };
    const bet = hand.actions.some((a) => a.seat === s.seat && a.what !== 'fold' && a.what !== 'check');
    return `${head} folded ${where[folded.street]}${bet ? '' : " (didn't bet)"}`;
  }
  if (shown) {
    return s.collected > 0
      ? `${head} showed ${cards(s.hole)} and won (${s.collected}) with ${described(shown)}`
      : `${head} showed ${cards(s.hole)} and lost with ${described(shown)}`;
  }
  return s.collected > 0 ? `${head} collected (${s.collected})` : head;
}

const RANK_NAMES: Record<string, [string, string]> = {
  '2': ['Deuce', 'Deuces'],
  '3': ['Three', 'Threes'],
  '4': ['Four', 'Fours'],
  '5': ['Five', 'Fives'],
  '6': ['Six', 'Sixes'],
  '7': ['Seven', 'Sevens'],
  '8': ['Eight', 'Eights'],
  '9': ['Nine', 'Nines'],
  T: ['Ten', 'Tens'],
  J: ['Jack', 'Jacks'],
  Q: ['Queen', 'Queens'],
  K: ['King', 'Kings'],
  A: ['Ace', 'Aces'],
};
const one = (rank: string) => RANK_NAMES[rank]?.[0] ?? rank;
const many = (rank: string) => RANK_NAMES[rank]?.[1] ?? rank;
const ORDER = '23456789TJQKA';
/** A straight's lowest card from its highest (the wheel's is the ace). */
const below = (high: string) => ORDER[ORDER.indexOf(high) - 4] ?? 'A';

/** A shown hand in PokerStars's words: "a pair of Aces", "a straight, Five to Nine". */
function described(s: { best: Card[]; strength: number }): string {
  const n: HandName = handName(s.strength, s.best);
  switch (n.kind) {
    case 'highCard':
      return `high card ${one(n.high)}`;
    case 'pair':
      return `a pair of ${many(n.rank)}`;
    case 'twoPair':
      return `two pair, ${many(n.high)} and ${many(n.low)}`;
    case 'threeOfAKind':
      return `three of a kind, ${many(n.rank)}`;
    case 'straight':
      return `a straight, ${one(below(n.high))} to ${one(n.high)}`;
    case 'flush':
      return `a flush, ${one(n.high)} high`;
    case 'fullHouse':
      return `a full house, ${many(n.three)} full of ${many(n.two)}`;
    case 'fourOfAKind':
      return `four of a kind, ${many(n.rank)}`;
    case 'straightFlush':
      return `a straight flush, ${one(below(n.high))} to ${one(n.high)}`;
    case 'royalFlush':
      return 'a Royal Flush';
  }
}
