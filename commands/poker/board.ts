import { z } from 'zod';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import type { BotDeps, ButtonSpec, Reply } from '../../src/interactions/types.js';
import { chipsInHand, legalActions, playableSeats } from '../../utils/poker/engine.js';
import type { TimedOutcome } from '../../utils/poker/pokerService.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { cardText, logText, outcomeText, resultLines, timedLine } from './boardText.js';
import { fairLines } from './fairness.js';

export { cardText } from './boardText.js';

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

const FELT = 0x1f6f43;

/** The table's settings a board tells about: the turn clock, the pause between hands, the start timer. */
export interface BoardTiming {
  turnS: number;
  nextS: number;
  startS: number;
}

export async function boardTiming(deps: Pick<BotDeps, 'runtimeConfig'>): Promise<BoardTiming> {
  const [turnS, nextS, startS] = await Promise.all([
    deps.runtimeConfig.get('poker.turn_s'),
    deps.runtimeConfig.get('poker.next_hand_s'),
    deps.runtimeConfig.get('poker.start_delay_s'),
  ]);
  return { turnS, nextS, startS };
}

/**
 * The table's public message: board, pots, stacks, whose turn with a countdown, the last
 * actions, the previous hand's result, how to sit down, and the buttons. `outcome`: what a
 * timer just did, said first.
 */
export function boardMessage(
  t: TableDoc,
  i18n: Translator,
  timing: BoardTiming,
  outcome?: TimedOutcome,
): Reply {
  const hand = t.game.hand;
  const live = hand !== null && hand.street !== 'done';
  const told = outcome ? outcomeText(outcome, i18n) : null;
  const lines: string[] = told ? [timedLine(told)] : [];
  if (hand && hand.board.length > 0)
    lines.push(i18n.t('poker:board.cards', { cards: hand.board.map(cardText).join(' ') }));
  if (live) lines.push(i18n.t('poker:board.pot', { pot: i18n.number(chipsInHand(hand)) }));
  lines.push(...seatLines(t, i18n));
  if (live && hand.toAct !== null) {
    const free = legalActions(t.game, hand.toAct).canCheck;
    lines.push(
      i18n.t(free ? 'poker:board.toActCheck' : 'poker:board.toActFold', {
        who: t.game.seats[hand.toAct]?.userId,
        atSeconds: Math.floor(t.stepAt.getTime() / 1000) + timing.turnS,
      }),
    );
  }
  if (hand?.result) lines.push(...resultLines(hand, i18n));
  if (hand && hand.log.length > 0)
    lines.push(
      `-# ${hand.log
        .slice(-4)
        .map((e) => logText(e, i18n))
        .join(' · ')}`,
    );
  const previous = t.game.previous;
  if (live && previous?.result)
    lines.push(
      `-# ${i18n.t('poker:board.previous', { hand: previous.number })} ${resultLines(previous, i18n).join(' · ')}`,
    );
  lines.push(...nextSteps(t, i18n, timing));
  lines.push(...fairLines(t, i18n));
  return {
    embeds: [
      {
        title: i18n.t(t.game.handsPlayed > 0 ? 'poker:board.title' : 'poker:board.titleNew', {
          small: t.game.smallBlind,
          big: t.game.bigBlind,
          hand: t.game.handsPlayed,
        }),
        color: FELT,
        description: lines.join('\n') || i18n.t('poker:board.empty'),
        footer: i18n.t(t.status === 'closed' ? 'poker:board.footerClosed' : 'poker:board.footer', {
          table: t._id,
        }),
      },
    ],
    buttons: t.status === 'closed' ? [] : buttons(t, i18n),
  };
}

/** One line per seat: stack, button, and in a hand folded / all-in / bet, or waiting for the next hand. */
function seatLines(t: TableDoc, i18n: Translator): string[] {
  const hand = t.game.hand;
  const live = hand !== null && hand.street !== 'done';
  const lines: string[] = [];
  t.game.seats.forEach((s, i) => {
    if (!s) return;
    // A seat someone left mid-hand may hold a latecomer: the hand's player there is not them.
    const p = hand?.players.find((x) => x.seat === i && x.userId === s.userId);
    const marks = [
      live && !p ? i18n.t('poker:board.waiting') : '',
      live && p?.folded ? i18n.t('poker:board.folded') : '',
      live && p?.allIn ? i18n.t('poker:board.allIn') : '',
      live && p && p.committed > 0 ? i18n.t('poker:board.bet', { bet: i18n.number(p.committed) }) : '',
    ].filter(Boolean);
    const stack = i18n.t('poker:board.stack', { count: s.stack, stack: i18n.number(s.stack) });
    const button = hand && hand.button === i && p ? ' 🔘' : '';
    lines.push(
      [`${live && hand.toAct === i ? '▶️' : '•'} <@${s.userId}>${button} ${stack}`, ...marks].join(' · '),
    );
  });
  for (const m of t.pending.filter((x) => x.kind === 'buyin' && x.state === 'applying')) {
    lines.push(`• <@${m.userId}> ${i18n.t('poker:board.sitting', { amount: i18n.cookies(m.amount) })}`);
  }
  return lines;
}

/** What happens next and how to sit down: said once, as the timers will do it. */
function nextSteps(t: TableDoc, i18n: Translator, timing: BoardTiming): string[] {
  if (t.status === 'closed') return [i18n.t('poker:board.closed')];
  const range = { min: i18n.cookies(t.minBuyIn), max: i18n.cookies(t.maxBuyIn) };
  const hand = t.game.hand;
  if (hand && hand.street !== 'done') return [i18n.t('poker:board.sitDuringHand', range)];
  const ready = playableSeats(t.game).length >= 2;
  if (t.status === 'open') {
    const first = { host: t.hostId, count: timing.startS };
    return ready
      ? [i18n.t('poker:board.firstHandReady', first), i18n.t('poker:board.sitMore', range)]
      : [i18n.t('poker:board.sitFirst', range), i18n.t('poker:board.firstHandLater', first)];
  }
  const at = Math.floor(t.stepAt.getTime() / 1000) + timing.nextS;
  return [
    ready ? i18n.t('poker:board.dealsNext', { atSeconds: at }) : i18n.t('poker:board.waitingForTwo'),
    i18n.t('poker:board.sitMore', range),
  ];
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
  // Quick picks of the buy-in (any amount: /poker join); pressed during a hand, they seat a
  // latecomer for the next one.
  const mid = Math.round((t.minBuyIn + t.maxBuyIn) / 2);
  const sits = [...new Set([t.minBuyIn, mid, t.maxBuyIn])].map<ButtonSpec>((amount) => ({
    customId: sitButton.build({ table: id, amount }),
    label: i18n.t('poker:buttons.sit', { amount: i18n.number(amount) }),
    style: 'success',
  }));
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
      ...sits.map((b) => ({ ...b, style: 'secondary' as const })),
    ];
  }
  return [...sits, table('start', 'primary'), table('leave'), table('close', 'danger')];
}
