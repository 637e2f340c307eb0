import type { Translator } from '../../src/i18n/i18n.js';
import type { Card, Hand, LogEntry } from '../../utils/poker/engine.js';
import { handName } from '../../utils/poker/handNames.js';
import type { TimedOutcome } from '../../utils/poker/pokerService.js';

/*
 * The sentences of a table's board: the last actions, a hand's result with the cards shown
 * down and their names, and what a timer did.
 */

const SUIT = { s: '♠', h: '♥', d: '♦', c: '♣' } as Record<string, string>;
export function cardText(card: Card): string {
  return `${card[0] === 'T' ? '10' : card[0]}${SUIT[card[1] as string] ?? ''}`;
}

const cards = (list: Card[]) => list.map(cardText).join(' ');

export function logText(e: LogEntry, i18n: Translator): string {
  switch (e.what) {
    case 'blinds':
      return i18n.t('poker:log.blinds', { small: e.small, big: e.big });
    case 'fold':
    case 'check':
      return i18n.t(`poker:log.${e.what}${e.timedOut ? 'TimedOut' : ''}`, { who: e.userId });
    case 'call':
    case 'bet':
    case 'raise':
      return (
        i18n.t(`poker:log.${e.what}`, { who: e.userId, amount: i18n.number(e.amount) }) +
        (e.allIn ? ` (${i18n.t('poker:board.allIn')})` : '')
      );
    case 'street':
      return i18n.t(`poker:log.${e.street}`, { cards: cards(e.board) });
    case 'off':
      return i18n.t('poker:log.off');
  }
}

/** A rank in words (`poker:rank.K` with a count: "king" / "kings", "König" / "Könige"). */
function rank(i18n: Translator, r: string, count: number): string {
  return i18n.t(`poker:rank.${r}`, { count });
}

/** The full name of a shown hand: "pair of fives", "two pair, kings and sevens", "flush, ace high". */
export function handText(strength: number, best: Card[], i18n: Translator): string {
  const name = handName(strength, best);
  const key = `poker:hand.${name.kind}`;
  switch (name.kind) {
    case 'royalFlush':
      return i18n.t(key);
    case 'highCard':
    case 'straight':
    case 'flush':
    case 'straightFlush':
      return i18n.t(key, { high: rank(i18n, name.high, 1) });
    case 'pair':
    case 'threeOfAKind':
    case 'fourOfAKind':
      return i18n.t(key, { ranks: rank(i18n, name.rank, 2) });
    case 'twoPair':
      return i18n.t(key, { high: rank(i18n, name.high, 2), low: rank(i18n, name.low, 2) });
    case 'fullHouse':
      return i18n.t(key, { three: rank(i18n, name.three, 3), two: rank(i18n, name.two, 2) });
  }
}

/** Who won which pot, and each hand shown down: its hole cards and its name. */
export function resultLines(hand: Hand, i18n: Translator): string[] {
  const result = hand.result;
  if (!result) return [];
  const userOf = (seat: number) => hand.players.find((p) => p.seat === seat)?.userId;
  const lines = result.pots
    .filter((pot) => pot.amount > 0)
    .map((pot, i) =>
      i18n.t(i === 0 ? 'poker:board.wonMain' : 'poker:board.wonSide', {
        count: pot.winners.length,
        who: pot.winners.map((seat) => `<@${userOf(seat)}>`).join(', '),
        amount: i18n.number(pot.amount),
      }),
    );
  for (const s of result.shown) {
    const hole = hand.players.find((p) => p.seat === s.seat)?.hole ?? [];
    lines.push(
      i18n.t('poker:board.shows', {
        who: userOf(s.seat),
        hole: cards(hole),
        name: handText(s.strength, s.cards, i18n),
        best: cards(s.cards),
      }),
    );
  }
  if (result.rake > 0) lines.push(i18n.t('poker:board.rake', { rake: i18n.number(result.rake) }));
  return lines;
}

/** What a timer did, as the board's first line and the channel post both show it. */
export function timedLine(text: string): string {
  return `⏱️ **${text}**`;
}

/** What a timer did, said at the top of the board it edits (and posted where the table was opened). */
export function outcomeText(outcome: TimedOutcome, i18n: Translator): string | null {
  switch (outcome.what) {
    case 'turn':
      return i18n.t(`poker:timed.${outcome.action}`, { who: outcome.userId });
    case 'dealt':
      return null;
    case 'level':
      return i18n.t('poker:timed.level', { level: outcome.level, small: outcome.small, big: outcome.big });
    case 'closed': {
      const minutes = Math.max(1, Math.round(outcome.idleS / 60));
      const paid = outcome.cashOuts.map((c) => `<@${c.userId}> ${i18n.cookies(c.amount)}`).join(', ');
      return [
        i18n.t('poker:timed.closed', { count: minutes }),
        paid ? i18n.t('poker:timed.cashedOut', { paid }) : '',
      ]
        .filter(Boolean)
        .join(' ');
    }
  }
}
