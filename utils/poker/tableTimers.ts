import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, storedYet, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { Holds } from '../money/holds/holds.js';
import { cancelHand, playableSeats } from './engine.js';
import type { PokerAction } from './game.js';
import { isPaused } from './handEnd.js';
import { isRunning, levelBlinds, levelStart } from './sitAndGo.js';
import type { TableDoc, TableStore } from './tableStore.js';

const TASK = {
  moves: 'poker.moves',
  turn: 'poker.turn',
  deal: 'poker.deal',
  idle: 'poker.idle',
  level: 'poker.level',
} as const;

/**
 * How long the table waits for a tournament player who is away before it checks or folds for
 * them: long enough to press a button, short enough that an absent player does not hold the
 * others up for a whole turn clock each time (they are dealt in and post their blinds).
 */
export const AWAY_TURN_MS = 5_000;

/** How long the player to act has (`turnS` the table's turn clock): less when they are away. */
export function turnMsOf(table: TableDoc, turnS: number): number {
  const toAct = table.game.hand?.toAct;
  const away = table.sng !== undefined && toAct != null && table.game.seats[toAct]?.away === true;
  return away ? AWAY_TURN_MS : turnS * 1000;
}

/** What a timer did to a table, told to the people at it. */
export type TimedOutcome =
  | { what: 'turn'; userId: string; action: 'check' | 'fold' }
  | { what: 'dealt' }
  | { what: 'level'; level: number; small: number; big: number }
  | { what: 'closed'; idleS: number; cashOuts: { userId: string; amount: number }[] };

interface TableTimersDeps {
  tables: TableStore;
  holds: Pick<Holds, 'get'>;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
}

/** What the timers do to a table: the service's own moves (`PokerService`). */
export interface TableActions {
  start(tableId: string, actorId: string | null): Promise<TableDoc>;
  act(
    tableId: string,
    userId: string,
    action: PokerAction,
    step: number,
    byMember?: boolean,
  ): Promise<TableDoc>;
  close(tableId: string, actorId: string | null, step?: number): Promise<TableDoc>;
  finishMoves(tableId: string): Promise<TableDoc>;
}

/**
 * A table's timers: the turn clock, the next deal, the idle close, and the finishing of its
 * Cookie operations a crash left half-done. What they do to the table is the service's.
 */
export class TableTimers {
  constructor(private readonly deps: TableTimersDeps) {}

  /**
   * The table's timers, stepping the table through `poker`; `onChanged` shows the people at the
   * table what a timer did (the board is edited; see commands/poker/index.ts).
   */
  tasks(
    poker: TableActions,
    onChanged: (table: TableDoc, outcome: TimedOutcome) => Promise<void>,
  ): TaskHandler[] {
    const table = z.object({ tableId: z.string() });
    const told = async (tableId: string, outcome: TimedOutcome) => {
      const t = await this.deps.tables.get(tableId);
      if (t) await onChanged(t, outcome);
    };
    const stepped = table.extend({ step: z.number().int() });
    return [
      // Planned before its move is stored: a run that finds the move neither at the table nor
      // begun (its hold) comes back on the back-off, as a process may still be storing it.
      defineTask(TASK.moves, table, async ({ tableId }, task) => {
        const after = await poker.finishMoves(tableId);
        const op = task.id.slice(TASK.moves.length + 1);
        const begun = after.pending.some((m) => m.op === op) || (await this.deps.holds.get(op)) !== null;
        storedYet(task, begun, `poker move ${op}`);
      }),
      // The player to act let the clock run out: a check when free, else a fold.
      defineTask(TASK.turn, stepped, async ({ tableId, step }) => {
        const t = await this.deps.tables.get(tableId);
        const hand = t?.game.hand;
        if (!t || t.step !== step || !hand || hand.toAct === null || hand.street === 'done') return;
        if (await this.#abandoned(t)) return this.#close(poker, t, told);
        const p = hand.players.find((x) => x.seat === hand.toAct);
        const action = p !== undefined && p.committed >= hand.currentBet ? 'check' : 'fold';
        await poker.act(tableId, p?.userId ?? '', { type: action, timedOut: true }, step, false);
        await told(tableId, { what: 'turn', userId: p?.userId ?? '', action });
      }),
      // The next hand (or the first, when the host did not start it): only if nothing moved
      // since, and never at a paused table (a timer of before the pause finds its step gone).
      defineTask(TASK.deal, stepped, async ({ tableId, step }) => {
        const t = await this.deps.tables.get(tableId);
        if (!t || t.step !== step || t.status === 'closed' || playableSeats(t.game).length < 2) return;
        if (isPaused(t)) return;
        if (await this.#abandoned(t)) return this.#close(poker, t, told);
        await poker.start(tableId, null);
        await told(tableId, { what: 'dealt' });
      }),
      // A tournament's next blind level began: the table is told (each deal reads the level
      // from the start time itself), and the level after it is planned.
      defineTask(TASK.level, table.extend({ level: z.number().int().min(1) }), async ({ tableId, level }) => {
        const t = await this.deps.tables.get(tableId);
        if (!t?.sng || !isRunning(t)) return;
        await this.scheduleLevel(t, level + 1);
        await told(tableId, { what: 'level', level: level + 1, ...levelBlinds(t.sng, level) });
      }),
      // Nothing moved for poker.idle_close_s: the table closes and everyone is cashed out.
      defineTask(TASK.idle, stepped, async ({ tableId, step }) => {
        const t = await this.deps.tables.get(tableId);
        if (!t || t.step !== step || t.status === 'closed') return;
        // A sit-down is a sign of life without moving the game: the idle period runs from it.
        if (!(await this.#abandoned(t))) return this.scheduleIdle(t, t.lastActionAt);
        await this.#close(poker, t, told);
      }),
    ];
  }

  /**
   * Closes an abandoned table at the step the timer saw, and tells what each seat was cashed
   * out. A member who moved it meanwhile (a Deal pressed as the timer fired) keeps it open.
   */
  async #close(
    poker: TableActions,
    table: TableDoc,
    told: (tableId: string, outcome: TimedOutcome) => Promise<void>,
  ): Promise<void> {
    const idleS = await this.deps.runtimeConfig.get('poker.idle_close_s');
    const cashOuts = cancelHand(table.game).seats.flatMap((s) =>
      s && s.stack > 0 ? [{ userId: s.userId, amount: s.stack }] : [],
    );
    const after = await poker.close(table._id, null, table.step);
    if (after.status === 'closed') await told(table._id, { what: 'closed', idleS, cashOuts });
  }

  /**
   * No member acted for poker.idle_close_s (timers keep a hand moving, but are no sign of life).
   * A tournament under way is never abandoned: its rising blinds end it.
   */
  async #abandoned(table: TableDoc): Promise<boolean> {
    if (isRunning(table)) return false;
    const idleS = await this.deps.runtimeConfig.get('poker.idle_close_s');
    return this.deps.clock.now().getTime() - table.lastActionAt.getTime() >= idleS * 1000;
  }

  async scheduleTimers(table: TableDoc): Promise<void> {
    for (const timer of await this.#timersOf(table)) {
      await this.#schedule(timer.kind, timer.id, timer.at, { tableId: table._id, step: table.step });
    }
  }

  /**
   * Drops the timers of a state the table has left (its step moved on): each would find the
   * step changed and do nothing, after a claim, a read and a mark. Best effort: a timer already
   * running, or one this misses, still does nothing.
   */
  async dropTimers(left: TableDoc): Promise<void> {
    for (const timer of await this.#timersOf(left)) {
      await this.deps.scheduler.cancel(`${timer.kind}:${timer.id}`).catch(() => false);
    }
  }

  /**
   * The timers a table's state plans: its turn clock, its next deal, or its start and idle
   * close; a paused table only its idle close.
   */
  async #timersOf(table: TableDoc): Promise<{ kind: string; id: string; at: number }[]> {
    const now = this.deps.clock.now().getTime();
    const hand = table.game.hand;
    const at = `${table._id}:${table.step}`;
    if (table.status === 'closed') return [];
    if (hand && hand.street !== 'done' && hand.toAct !== null) {
      const turnS = await this.deps.runtimeConfig.get('poker.turn_s');
      return [{ kind: TASK.turn, id: at, at: now + turnMsOf(table, turnS) }];
    }
    if (isPaused(table)) {
      // Paused: nothing deals; the table closes poker.idle_close_s after the last member action.
      const idleS = await this.deps.runtimeConfig.get('poker.idle_close_s');
      return [{ kind: TASK.idle, id: at, at: Math.max(now, table.lastActionAt.getTime() + idleS * 1000) }];
    }
    if (table.status === 'playing' && playableSeats(table.game).length >= 2) {
      const nextS = await this.deps.runtimeConfig.get('poker.next_hand_s');
      return [{ kind: TASK.deal, id: at, at: now + nextS * 1000 }];
    }
    const idleS = await this.deps.runtimeConfig.get('poker.idle_close_s');
    const idle = { kind: TASK.idle, id: at, at: now + idleS * 1000 };
    if (table.sng && table.status === 'open') {
      // A tournament starts by itself once every seat it was opened for has its chips.
      const full = playableSeats(table.game).length >= table.sng.players && table.pending.length === 0;
      const nextS = await this.deps.runtimeConfig.get('poker.next_hand_s');
      return full ? [{ kind: TASK.deal, id: `${at}:start`, at: now + nextS * 1000 }, idle] : [idle];
    }
    if (table.status === 'open' && playableSeats(table.game).length >= 2) {
      const startS = await this.deps.runtimeConfig.get('poker.start_delay_s');
      return [{ kind: TASK.deal, id: `${at}:start`, at: now + startS * 1000 }, idle];
    }
    return [idle];
  }

  /** The idle close, poker.idle_close_s after now, or after `since` (a sit-down after the last move). */
  async scheduleIdle(table: TableDoc, since?: Date): Promise<void> {
    const idleS = await this.deps.runtimeConfig.get('poker.idle_close_s');
    const from = since?.getTime() ?? this.deps.clock.now().getTime();
    await this.#schedule(
      TASK.idle,
      `${table._id}:${table.step}${since ? `:${from}` : ''}`,
      from + idleS * 1000,
      { tableId: table._id, step: table.step },
    );
  }

  /** The start of a tournament's blind level `level` (levels count from its first deal). */
  async scheduleLevel(table: TableDoc, level: number): Promise<void> {
    if (!table.sng) return;
    await this.#schedule(TASK.level, `${table._id}:${level}`, levelStart(table.sng, level).getTime(), {
      tableId: table._id,
      level,
    });
  }

  async scheduleMoves(tableId: string, op: string): Promise<void> {
    await this.#schedule(TASK.moves, op, this.deps.clock.now().getTime() + RECOVERY_GRACE_MS, { tableId });
  }

  async #schedule(kind: string, id: string, at: number, payload: unknown): Promise<void> {
    await this.deps.scheduler.schedule({ id: `${kind}:${id}`, kind, dueAt: new Date(at), payload });
  }
}
