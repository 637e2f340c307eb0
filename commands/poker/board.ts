import { z } from 'zod';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import type { ButtonSpec, Reply } from '../../src/interactions/types.js';
import { type Card, chipsInHand, type LogEntry, legalActions } from '../../utils/poker/engine.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';

const table = z.string().regex(/^[\w-]{1,40}$/);
/** A betting press: the table, what, and the game step the board showed (a stale board's press does nothing). */
export const actButton = defineComponent('poker.act', {
  table,
  action: z.enum(['fold', 'check', 'call', 'min', 'half', 'pot', 'allin']),
  step: z.coerce.number().int().min(0),
});
export const sitButton = defineComponent('poker.sit', { table, amount: z.coerce.number().int().min(1) });
export const tableButton = defineComponent('poker.table', {
  table,
  what: z.enum(['cards', 'start', 'leave', 'close']),
});

export type Sizing = 'min' | 'half' | 'pot' | 'allin';

/** The chips a raise button stands for: the minimum, half the pot, the pot, or everything. */
export function raiseTo(t: TableDoc, seat: number, sizing: Sizing): number {
  const legal = legalActions(t.game, seat);
  const hand = t.game.hand;
  const potAfterCall = chipsInHand(hand) + legal.toCall;
  const wanted = {
    min: legal.minRaiseTo,
    half: (hand?.currentBet ?? 0) + Math.floor(potAfterCall / 2),
    pot: (hand?.currentBet ?? 0) + potAfterCall,
    allin: legal.maxRaiseTo,
  }[sizing];
  return Math.min(legal.maxRaiseTo, Math.max(legal.minRaiseTo, wanted));
}

const SUIT = { s: '♠', h: '♥', d: '♦', c: '♣' } as Record<string, string>;
export function cardText(card: Card): string {
  return `${card[0] === 'T' ? '10' : card[0]}${SUIT[card[1] as string] ?? ''}`;
}

const FELT = 0x1f6f43;

/** The table's public message: board, pots, stacks, whose turn with a countdown, the last actions, and the buttons. */
export function boardMessage(t: TableDoc, i18n: Translator, timing: { turnS: number; nextS: number }): Reply {
  const hand = t.game.hand;
  const live = hand && hand.street !== 'done';
  const lines: string[] = [];
  if (hand && hand.board.length > 0)
    lines.push(i18n.t('poker:board.cards', { cards: hand.board.map(cardText).join(' ') }));
  if (live) lines.push(i18n.t('poker:board.pot', { pot: i18n.number(chipsInHand(hand)) }));
  t.game.seats.forEach((s, i) => {
    if (!s) return;
    const p = hand?.players.find((x) => x.seat === i);
    const marks = [
      hand && hand.button === i ? '🔘' : '',
      live && p?.folded ? i18n.t('poker:board.folded') : '',
      live && p?.allIn ? i18n.t('poker:board.allIn') : '',
      live && p && p.committed > 0 ? i18n.t('poker:board.bet', { bet: i18n.number(p.committed) }) : '',
    ].filter(Boolean);
    lines.push(
      `${live && hand.toAct === i ? '▶️' : '•'} <@${s.userId}> ${i18n.t('poker:board.stack', { stack: i18n.number(s.stack) })} ${marks.join(' ')}`.trim(),
    );
  });
  for (const m of t.pending.filter((x) => x.kind === 'buyin' && x.state === 'applying')) {
    lines.push(`• <@${m.userId}> ${i18n.t('poker:board.sitting', { amount: i18n.cookies(m.amount) })}`);
  }
  if (live && hand.toAct !== null) {
    const who = t.game.seats[hand.toAct]?.userId;
    lines.push(
      i18n.t('poker:board.toAct', { who, atSeconds: Math.floor(t.stepAt.getTime() / 1000) + timing.turnS }),
    );
  }
  if (hand?.result) lines.push(...resultLines(t, i18n));
  if (hand && hand.log.length > 0)
    lines.push(
      `-# ${hand.log
        .slice(-4)
        .map((e) => logText(e, i18n))
        .join(' · ')}`,
    );
  if (t.status === 'closed') lines.push(i18n.t('poker:board.closed'));
  else if (!live) {
    const seated = t.game.seats.filter((s) => s && s.stack > 0).length;
    if (t.status === 'playing' && seated >= 2) {
      lines.push(
        i18n.t('poker:board.nextHand', { atSeconds: Math.floor(t.stepAt.getTime() / 1000) + timing.nextS }),
      );
    }
    lines.push(i18n.t('poker:board.buyIn', { min: i18n.cookies(t.minBuyIn), max: i18n.cookies(t.maxBuyIn) }));
  }
  return {
    embeds: [
      {
        title: i18n.t('poker:board.title', {
          small: t.game.smallBlind,
          big: t.game.bigBlind,
          hand: t.game.handsPlayed,
        }),
        color: FELT,
        description: lines.join('\n') || i18n.t('poker:board.empty'),
        footer: i18n.t('poker:board.footer', { table: t._id }),
      },
    ],
    buttons: t.status === 'closed' ? [] : buttons(t, i18n),
  };
}

function logText(e: LogEntry, i18n: Translator): string {
  switch (e.what) {
    case 'blinds':
      return i18n.t('poker:log.blinds', { small: e.small, big: e.big });
    case 'fold':
    case 'check':
      return i18n.t(`poker:log.${e.what}`, { who: e.userId });
    case 'call':
    case 'bet':
    case 'raise':
      return (
        i18n.t(`poker:log.${e.what}`, { who: e.userId, amount: i18n.number(e.amount) }) +
        (e.allIn ? ` (${i18n.t('poker:board.allIn')})` : '')
      );
    case 'street':
      return i18n.t(`poker:log.${e.street}`, { cards: e.board.map(cardText).join(' ') });
    case 'off':
      return i18n.t('poker:log.off');
  }
}

function resultLines(t: TableDoc, i18n: Translator): string[] {
  const result = t.game.hand?.result;
  if (!result) return [];
  const lines = result.pots
    .filter((pot) => pot.amount > 0)
    .map((pot, i) =>
      i18n.t(i === 0 ? 'poker:board.wonMain' : 'poker:board.wonSide', {
        who: pot.winners
          .map((seat) => `<@${t.game.hand?.players.find((p) => p.seat === seat)?.userId}>`)
          .join(', '),
        amount: i18n.number(pot.amount),
      }),
    );
  for (const s of result.shown) {
    const who = t.game.hand?.players.find((p) => p.seat === s.seat)?.userId;
    lines.push(`<@${who}>: ${s.cards.map(cardText).join(' ')} (${i18n.t(`poker:strength.${s.strength}`)})`);
  }
  if (result.rake > 0) lines.push(i18n.t('poker:board.rake', { rake: i18n.number(result.rake) }));
  return lines;
}

function buttons(t: TableDoc, i18n: Translator): ButtonSpec[] {
  const hand = t.game.hand;
  const id = t._id;
  const table = (
    what: 'cards' | 'start' | 'leave' | 'close',
    style: ButtonSpec['style'] = 'secondary',
  ): ButtonSpec => ({
    customId: tableButton.build({ table: id, what }),
    label: i18n.t(`poker:buttons.${what}`),
    style,
  });
  if (hand && hand.street !== 'done' && hand.toAct !== null) {
    const legal = legalActions(t.game, hand.toAct);
    const press = (action: 'fold' | 'check' | 'call' | Sizing, style: ButtonSpec['style']): ButtonSpec => ({
      customId: actButton.build({ table: id, action, step: t.step }),
      label: i18n.t(`poker:buttons.${action}`),
      style,
    });
    return [
      press('fold', 'danger'),
      legal.canCheck ? press('check', 'secondary') : press('call', 'primary'),
      ...(legal.canRaise ? [press('min', 'success'), press('half', 'success'), press('pot', 'success')] : []),
      ...(legal.canRaise || legal.callAmount < legal.toCall ? [press('allin', 'success')] : []),
      table('cards', 'primary'),
      table('leave'),
    ];
  }
  const mid = Math.round((t.minBuyIn + t.maxBuyIn) / 2);
  const sits = [...new Set([t.minBuyIn, mid, t.maxBuyIn])].map<ButtonSpec>((amount) => ({
    customId: sitButton.build({ table: id, amount }),
    label: i18n.t('poker:buttons.sit', { amount: i18n.number(amount) }),
    style: 'success',
  }));
  return [...sits, table('start', 'primary'), table('leave'), table('close', 'danger')];
}
