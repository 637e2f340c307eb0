import { z } from 'zod';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import type { BotDeps, ButtonSpec, Reply } from '../../src/interactions/types.js';
import { chipsInHand, legalActions, MAX_SEATS, playableSeats } from '../../utils/poker/engine.js';
import { isPaused, QUIET_HANDS } from '../../utils/poker/handEnd.js';
import type { TimedOutcome } from '../../utils/poker/pokerService.js';
import { hasStarted, registered, type SitAndGo } from '../../utils/poker/sitAndGo.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { AWAY_TURN_MS, turnMsOf } from '../../utils/poker/tableTimers.js';
import { cardText, logText, outcomeText, resultLines, timedLine } from './boardText.js';
import { fairLines } from './fairness.js';
import { raiseButton } from './raiseForm.js';
import { sitAnyButton } from './sitForm.js';
import { gaveUpLines, outLine, tournamentLines, tournamentNextSteps, tournamentTitle } from './tournament.js';

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
  what: z.enum(['cards', 'start', 'leave', 'close', 'back']),
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

/**
 * The table's settings a board tells about: the turn clock, the pause between hands, the start
 * timer, the idle close; and when it is drawn (a tournament's blind level; absent: its last move).
 */
export interface BoardTiming {
  turnS: number;
  nextS: number;
  startS: number;
  idleS: number;
  now?: Date;
}

export async function boardTiming(deps: Pick<BotDeps, 'runtimeConfig' | 'clock'>): Promise<BoardTiming> {
  const [turnS, nextS, startS, idleS] = await Promise.all([
    deps.runtimeConfig.get('poker.turn_s'),
    deps.runtimeConfig.get('poker.next_hand_s'),
    deps.runtimeConfig.get('poker.start_delay_s'),
    deps.runtimeConfig.get('poker.idle_close_s'),
  ]);
  return { turnS, nextS, startS, idleS, now: deps.clock.now() };
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
  if (t.sng) lines.push(...tournamentLines(t, t.sng, i18n, timing.now ?? t.stepAt));
  if (live && hand.toAct !== null) {
    const free = legalActions(t.game, hand.toAct).canCheck;
    // The instant the turn timer plans (within seconds for an away tournament player).
    lines.push(
      i18n.t(free ? 'poker:board.toActCheck' : 'poker:board.toActFold', {
        who: t.game.seats[hand.toAct]?.userId,
        atSeconds: Math.floor((t.stepAt.getTime() + turnMsOf(t, timing.turnS)) / 1000),
      }),
    );
  }
  if (hand?.result) lines.push(...resultLines(hand, i18n));
  if (hand?.street === 'done')
    for (const who of hand.out ?? [])
      lines.push(t.sng ? outLine(t.sng, who, i18n) : i18n.t('poker:board.out', { who }));
  if (t.sng && hand) lines.push(...gaveUpLines(t.sng, hand.number, i18n));
  if (hand && hand.log.length > 0)
    lines.push(
      `-# ${hand.log
        .slice(-4)
        .map((e) => logText(e, i18n))
        .join(' · ')}`,
    );
  const previous = t.game.previous;
  // The hand before, in small print, one line each for its pots and the hands shown: short
  // lines a phone does not have to wrap.
  if (live && previous?.result) {
    const [first, ...rest] = resultLines(previous, i18n);
    lines.push(`-# ${i18n.t('poker:board.previous', { hand: previous.number })} ${first ?? ''}`);
    lines.push(...rest.map((line) => `-# ${line}`));
  }
  lines.push(...(t.sng ? tournamentNextSteps(t, t.sng, i18n, timing.nextS) : nextSteps(t, i18n, timing)));
  lines.push(...fairLines(t, i18n));
  return {
    embeds: [
      {
        title: t.sng
          ? tournamentTitle(t, t.sng, i18n)
          : i18n.t(t.game.handsPlayed > 0 ? 'poker:board.title' : 'poker:board.titleNew', {
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
      s.away ? i18n.t('poker:board.away', { seconds: AWAY_TURN_MS / 1000 }) : '',
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
  if (ready && isPaused(t)) {
    const at = Math.floor(t.lastActionAt.getTime() / 1000) + timing.idleS;
    return [
      i18n.t('poker:board.paused', {
        hands: QUIET_HANDS,
        atSeconds: Math.max(at, Math.floor(t.stepAt.getTime() / 1000)),
      }),
      i18n.t('poker:board.sitMore', range),
    ];
  }
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

/**
 * The buttons that apply now, at most two rows. In a hand: the actions of the player to act,
 * each with its chips (no Check facing a bet, no Fold or Call when checking is free, raises only
 * when they may raise), then My cards and Leave. Between hands: the buy-in picks while a seat is
 * free, Start (the first hand) or Deal (a paused table) when two players have chips, Leave and
 * Close. At a tournament, I'm back while a player is away.
 */
function buttons(t: TableDoc, i18n: Translator): ButtonSpec[] {
  const hand = t.game.hand;
  const id = t._id;
  const table = (
    what: 'cards' | 'start' | 'leave' | 'close' | 'back',
    style: ButtonSpec['style'] = 'secondary',
    label = i18n.t(`poker:buttons.${what}`),
  ): ButtonSpec => ({ customId: tableButton.build({ table: id, what }), label, style });
  const seated = t.game.seats.some((s) => s !== null);
  // At a tournament under way, leaving is giving up; before it, taking the registration back.
  const leave = t.sng
    ? table('leave', 'secondary', i18n.t(hasStarted(t) ? 'poker:sng.forfeit' : 'poker:sng.unregister'))
    : table('leave');
  // A tournament player the table acts for comes back with I'm back.
  const back = t.game.seats.some((s) => s?.away) ? [table('back', 'success')] : [];
  if (hand && hand.street !== 'done') {
    const own = [table('cards', 'primary'), ...back, leave];
    return hand.toAct === null ? own : [...actions(t, hand.toAct, i18n), ...own];
  }
  if (t.sng)
    return [
      ...back,
      ...tournamentButtons(t, t.sng, i18n, table('start', 'primary'), leave, table('close', 'danger')),
    ];
  const taken =
    t.game.seats.filter((s) => s !== null).length + t.pending.filter((m) => m.kind === 'buyin').length;
  // Quick picks of the buy-in; Sit… (or /poker join) takes any amount between the limits.
  const mid = Math.round((t.minBuyIn + t.maxBuyIn) / 2);
  const sits =
    taken < MAX_SEATS
      ? [
          ...[...new Set([t.minBuyIn, mid, t.maxBuyIn])].map<ButtonSpec>((amount) => ({
            customId: sitButton.build({ table: id, amount }),
            label: i18n.t('poker:buttons.sit', { amount: i18n.number(amount) }),
            style: 'success',
          })),
          // Any other buy-in, typed into a form.
          {
            customId: sitAnyButton.build({ table: id }),
            label: i18n.t('poker:buttons.sitAny'),
            style: 'secondary' as const,
          },
        ]
      : [];
  const ready = playableSeats(t.game).length >= 2;
  const deal =
    ready && t.status === 'open'
      ? [table('start', 'primary')]
      : ready && isPaused(t)
        ? [table('start', 'primary', i18n.t('poker:buttons.deal'))]
        : [];
  return [...sits, ...deal, ...(seated ? [table('leave')] : []), table('close', 'danger')];
}

/**
 * A tournament's buttons between hands: Register (its one buy-in) while it has room, Start for
 * the host from two players, Unregister and Close before it starts; Give up once under way.
 */
function tournamentButtons(
  t: TableDoc,
  sng: SitAndGo,
  i18n: Translator,
  start: ButtonSpec,
  leave: ButtonSpec,
  close: ButtonSpec,
): ButtonSpec[] {
  const seated = t.game.seats.some((s) => s !== null);
  if (hasStarted(t)) return seated ? [leave] : [];
  const register: ButtonSpec = {
    customId: sitButton.build({ table: t._id, amount: sng.buyIn }),
    label: i18n.t('poker:sng.registerButton', { buyIn: i18n.number(sng.buyIn) }),
    style: 'success',
  };
  return [
    ...(registered(t) < sng.players ? [register] : []),
    ...(playableSeats(t.game).length >= 2 ? [start] : []),
    ...(seated ? [leave] : []),
    close,
  ];
}

type Press = (
  action: 'fold' | 'check' | 'call' | Sizing,
  style: ButtonSpec['style'],
  label: string,
) => ButtonSpec;

/** The betting buttons of the player to act, each naming its chips. */
function actions(t: TableDoc, seat: number, i18n: Translator): ButtonSpec[] {
  const legal = legalActions(t.game, seat);
  const press: Press = (action, style, label) => ({
    customId: actButton.build({ table: t._id, action, step: t.step }),
    label,
    style,
  });
  const raising = legal.canRaise ? raises(t, seat, i18n, press) : [];
  if (legal.canCheck) return [press('check', 'secondary', i18n.t('poker:buttons.check')), ...raising];
  const allIn = legal.callAmount >= (t.game.seats[seat]?.stack ?? 0);
  return [
    press('fold', 'danger', i18n.t('poker:buttons.fold')),
    press(
      'call',
      'primary',
      i18n.t(allIn ? 'poker:buttons.callAllIn' : 'poker:buttons.call', {
        amount: i18n.number(legal.callAmount),
      }),
    ),
    ...raising,
  ];
}

/**
 * The raise presets, each naming the total it raises (or bets) to: the minimum, the pot, all-in;
 * then Raise… for any amount between.
 */
function raises(t: TableDoc, seat: number, i18n: Translator, press: Press): ButtonSpec[] {
  const min = raiseTo(t, seat, 'min');
  const pot = raiseTo(t, seat, 'pot');
  const max = legalActions(t.game, seat).maxRaiseTo;
  const to = (amount: number) => ({ amount: i18n.number(amount) });
  const opening = (t.game.hand?.currentBet ?? 0) === 0;
  return [
    ...(min < max
      ? [press('min', 'success', i18n.t(opening ? 'poker:buttons.bet' : 'poker:buttons.min', to(min)))]
      : []),
    ...(pot > min && pot < max ? [press('pot', 'success', i18n.t('poker:buttons.pot', to(pot)))] : []),
    press('allin', 'success', i18n.t('poker:buttons.allin', to(max))),
    // Any other size, typed into a form.
    ...(min < max
      ? [
          {
            customId: raiseButton.build({ table: t._id, step: t.step }),
            label: i18n.t('poker:buttons.raise'),
            style: 'secondary' as const,
          },
        ]
      : []),
  ];
}
