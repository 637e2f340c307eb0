import type { Clock } from '../../src/clock.js';
import { CONFLICT, CONFLICT_RETRY_LIMIT, retryOnConflict } from '../../src/db/retryOnConflict.js';
import { AppError, featureDisabled, invalidInputText, isAppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import type { Scheduler, TaskHandler } from '../../src/scheduler/scheduler.js';
import type { CookieEconomy } from '../money/cookieEconomy.js';
import type { HoldDoc, Holds } from '../money/holds/holds.js';
import { insufficientFunds } from '../money/ledger/errors.js';
import { act, type Card, cancelHand, foldOut, MAX_SEATS, type PokerAction, playableSeats } from './engine.js';
import { nextHandOnly, notInHand, tableClosed } from './errors.js';
import { isPaused } from './handEnd.js';
import type { HandSeedStore } from './handSeedStore.js';
import type { HandStore } from './handStore.js';
import { newTable } from './newTable.js';
import { PokerFairness } from './pokerFairness.js';
import { atLevel, forfeited, hasStarted, isRunning, refuseRegistration } from './sitAndGo.js';
import { absorbMove, withoutMove } from './tableBooks.js';
import { type PokerStep, TableMoves } from './tableMoves.js';
import { seatOf, withAway } from './tableSeats.js';
import type { PendingMove, TableDoc, TableRequest, TableStore } from './tableStore.js';
import { TableTimers, type TimedOutcome } from './tableTimers.js';

export type { PokerStep } from './tableMoves.js';
export { seatOf } from './tableSeats.js';
export type { TimedOutcome } from './tableTimers.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    poker: PokerService;
  }
}

interface PokerDeps {
  economy: CookieEconomy;
  holds: Holds;
  tables: TableStore;
  hands: HandStore;
  seeds: HandSeedStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  rng: Rng;
  log: Logger;
  /** A deck per hand of the test's choosing, instead of one from the hand's seeds. */
  shuffle?: () => Card[];
  /** Named points of a Cookie operation, for the crash tests (like the ledger's steps). */
  hooks?: { step(step: PokerStep, op: string): void };
}

/**
 * Poker tables (ECONOMY.md, "Poker"). Chips live in the table; only a buy-in, a
 * cash-out (or refund) and the rake cross into Cookies, each through the table's pot account
 * with its own operation id and a pending move, the table's marker of it. A Cookie operation's
 * lifecycle (ECONOMY.md, "Poker"):
 * 1. the intent is persisted with the table state: a pending move (`applying`);
 * 2. the ledger applies the operation (its id makes a retry a replay);
 * 3. the state absorbs it (seat stack, confirmed totals; the move becomes `applied`);
 * 4. the ledger's record of it is read back, and only then the move goes (`pending` is unset
 *    when the last one goes).
 * A timer per operation (and the timers of every table) finish any of these a crash left.
 */
export class PokerService {
  /** The table's timers (tableTimers.ts). */
  readonly #timers: TableTimers;
  /** The table's writes and its Cookie operations (tableMoves.ts). */
  readonly #moves: TableMoves;
  /** Each hand's seeds, and `/poker verify` (pokerFairness.ts). */
  readonly fairness: PokerFairness;

  constructor(private readonly deps: PokerDeps) {
    this.fairness = new PokerFairness(deps);
    this.#timers = new TableTimers(deps);
    this.#moves = new TableMoves({ ...deps, timers: this.#timers, table: (tableId) => this.#table(tableId) });
  }

  async create(request: TableRequest): Promise<TableDoc> {
    const c = this.deps.runtimeConfig;
    if (!(await c.get('poker.enabled'))) throw featureDisabled('poker:errors.pokerDisabled', 'poker.enabled');
    const smallBlind = request.smallBlind ?? (await c.get('poker.small_blind'));
    const maxBuyIn = request.maxBuyIn ?? (await c.get('poker.max_buy_in'));
    const bigBlinds = await c.get('poker.min_buy_in_bb');
    const minBuyIn = smallBlind * 2 * bigBlinds;
    if (!request.sng && maxBuyIn < minBuyIn) {
      throw invalidInputText('max buy-in below the minimum', 'poker:errors.buyInRange', {
        min: minBuyIn,
        max: maxBuyIn,
        bigBlinds,
      });
    }
    const table = newTable(request, this.deps.clock.now(), {
      smallBlind,
      minBuyIn,
      maxBuyIn,
      rakePct: await c.get('poker.rake_pct'),
      rakeCap: await c.get('poker.rake_cap'),
      nextSeedHash: await this.fairness.firstCommitment(request.tableId),
    });
    await this.deps.tables.create(table);
    await this.#timers.scheduleIdle(table);
    return table;
  }

  get(tableId: string): Promise<TableDoc | null> {
    return this.deps.tables.get(tableId);
  }

  /** The open tables a member hosts or sits at (their chips are in play there). */
  openTablesOf(userId: string): Promise<TableDoc[]> {
    return this.deps.tables.openWith(userId);
  }

  /** The table a member joins by command in this channel: the newest one still open. */
  async tableIn(channelId: string | null): Promise<TableDoc> {
    const table = channelId ? await this.deps.tables.openIn(channelId) : null;
    if (!table) throw invalidInputText(`no open table in ${channelId}`, 'poker:errors.noTableHere');
    return table;
  }

  /** Sits the member down with `buyIn` Cookies turned into chips. */
  async join(tableId: string, userId: string, buyIn: number): Promise<TableDoc> {
    const { reserved, move } = await retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      () => this.#reserveSeat(tableId, userId, buyIn),
      `seating ${userId} at poker table ${tableId}`,
    );
    this.deps.hooks?.step('intent.persisted', move.op);
    const joined = await this.#moves.runMove(reserved, move).catch(async (error: unknown) => {
      // The table closed meanwhile and called the buy-in off: that, not the ledger's refusal
      // of the late reserve ("took too long, try again"), is what the member needs to hear.
      if (!isAppError(error, 'INSUFFICIENT_COOKIES') && (await this.#table(tableId)).status === 'closed')
        throw tableClosed(tableId);
      throw error;
    });
    // Its chips landed, but the close cashed them out again at once: the member is not seated.
    if (joined.status === 'closed') throw tableClosed(tableId);
    return joined;
  }

  /** The buy-in as a pending move, its seat set aside; CONFLICT when the table moved meanwhile. */
  async #reserveSeat(
    tableId: string,
    userId: string,
    buyIn: number,
  ): Promise<{ reserved: TableDoc; move: PendingMove } | typeof CONFLICT> {
    const table = await this.#table(tableId);
    if (table.status === 'closed') throw tableClosed(tableId);
    if (table.sng) refuseRegistration(table, userId, buyIn);
    const sitting = seatOf(table, userId);
    const hand = table.game.hand;
    const inHand = hand !== null && hand.street !== 'done' && hand.players.some((p) => p.seat === sitting);
    // A seated member may buy in again only when busted, not in the hand in play, and not
    // already buying in (two Sit presses at once: the second finds the first's move).
    const buying = table.pending.some((m) => m.kind === 'buyin' && m.userId === userId);
    if (buying || (sitting !== null && ((table.game.seats[sitting]?.stack ?? 1) > 0 || inHand))) {
      throw invalidInputText('already seated', 'poker:errors.alreadySeated');
    }
    // Whole chips only: the service is also called by code, not just through zod at the edge.
    if (!Number.isInteger(buyIn) || buyIn < table.minBuyIn || buyIn > table.maxBuyIn) {
      throw invalidInputText(
        `buy-in ${buyIn} outside ${table.minBuyIn}..${table.maxBuyIn}`,
        'poker:errors.buyInOutside',
        {
          min: table.minBuyIn,
          max: table.maxBuyIn,
          buyIn,
        },
      );
    }
    const balance = await this.deps.economy.balance(userId);
    if (balance < buyIn) throw insufficientFunds('cookies', userId, balance, buyIn);
    // A seat whose player left the hand in play stays theirs until it ends: whoever sits there
    // now (they themselves, back again) would be taken for that player by the hand's rules.
    const seat =
      sitting ??
      table.game.seats.findIndex(
        (s, i) =>
          s === null &&
          !table.pending.some((m) => m.seat === i && m.kind === 'buyin') &&
          !(hand && hand.street !== 'done' && hand.players.some((p) => p.seat === i)),
      );
    if (seat < 0) throw invalidInputText('the table is full', 'poker:errors.tableFull', { seats: MAX_SEATS });
    const n = (table.sittings[seat] ?? 0) + 1;
    const move: PendingMove = {
      op: `poker_buyin:${tableId}:${seat}:${n}`,
      kind: 'buyin',
      seat,
      userId,
      amount: buyIn,
      sitting: n,
      state: 'applying',
      at: this.deps.clock.now(),
    };
    await this.#timers.scheduleMoves(tableId, move.op);
    const reserved = await this.deps.tables.swap(table, {
      ...table,
      pending: [...table.pending, move],
      sittings: table.sittings.map((count, i) => (i === seat ? n : count)),
      lastActionAt: this.deps.clock.now(),
    });
    return reserved ? { reserved, move } : CONFLICT;
  }

  /**
   * Deals a hand: the first (the host, or the start timer), or the next at a paused table (the
   * host or anyone seated); other hands follow by themselves.
   */
  start(tableId: string, actorId: string | null): Promise<TableDoc> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        // A timer (actorId null) deals as well, but is no sign of life at the table.
        const table = await this.#table(tableId);
        if (table.status === 'closed') throw tableClosed(tableId);
        if (actorId !== null && actorId !== table.hostId) {
          if (table.status === 'open') throw hostOnly(table.hostId, 'poker:errors.hostStarts');
          if (seatOf(table, actorId) === null) throw notInHand(tableId);
        }
        if (table.game.hand && table.game.hand.street !== 'done') return table;
        if (actorId === null && isPaused(table)) return table;
        if (playableSeats(table.game).length < 2) {
          throw invalidInputText('a hand needs two players with chips', 'poker:errors.needTwo');
        }
        const now = this.deps.clock.now();
        // The start timer found it full, but someone unregistered since: it waits to be full again.
        const short = table.sng && playableSeats(table.game).length < table.sng.players;
        if (short && actorId === null && !hasStarted(table)) return table;
        if (table.sng && !hasStarted(table) && table.pending.some((m) => m.kind === 'buyin')) {
          // A registration still landing would join a tournament already under way.
          if (actorId === null) return table;
          throw invalidInputText('a registration is landing', 'poker:errors.sngRegistering');
        }
        // At a tournament, each deal takes the blinds of the level in force.
        const dealing = table.sng ? atLevel(table, now) : table;
        const dealt = await this.#moves.commit(
          table,
          {
            ...dealing,
            status: 'playing',
            ...(await this.fairness.deal(dealing)),
            // A member who deals plays on: the quiet hands count again from none.
            quietHands: actorId === null ? (table.quietHands ?? 0) : 0,
          },
          actorId !== null,
        );
        if (dealt) await this.fairness.recordDeal(dealt);
        if (dealt?.sng && !hasStarted(table)) await this.#timers.scheduleLevel(dealt, 1);
        return dealt ?? CONFLICT;
      },
      `dealing at poker table ${tableId}`,
    );
  }

  /**
   * A member's action, or the turn clock's (`byMember` false: a tournament player is then away).
   * `step` is the game step their board showed: a second press, or a press on an older board,
   * changes nothing. Writes that are not moves (a buy-in landing) do not make a board old.
   */
  async act(
    tableId: string,
    userId: string,
    action: PokerAction,
    step: number,
    byMember = true,
  ): Promise<TableDoc> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        const table = await this.#table(tableId);
        if (table.step !== step) return table;
        const hand = table.game.hand;
        if (!hand || hand.street === 'done') return table;
        const seat = seatOf(table, userId);
        if (seat === null) throw notInHand(tableId);
        if (!hand.players.some((p) => p.seat === seat && p.userId === userId)) throw nextHandOnly(tableId);
        if (hand.toAct !== seat) throw invalidInputText('not your turn', 'poker:errors.notYourTurn');
        const game = act(table.game, seat, action);
        if (table.sng) game.seats = withAway(game.seats, seat, !byMember);
        return (await this.#moves.commit(table, { ...table, game }, byMember)) ?? CONFLICT;
      },
      `${userId}'s action at poker table ${tableId}`,
    );
  }

  /** Back from away (a tournament): the whole turn clock again, now if it is their turn. */
  back(tableId: string, userId: string): Promise<TableDoc> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        const table = await this.#table(tableId);
        const seat = seatOf(table, userId) ?? -1;
        if (!table.game.seats[seat]?.away) return table;
        const game = { ...table.game, seats: withAway(table.game.seats, seat, false) };
        return (await this.#moves.commit(table, { ...table, game })) ?? CONFLICT;
      },
      `${userId} back at poker table ${tableId}`,
    );
  }

  /** Leaves the table: folded if in a hand, then the stack is cashed out. */
  leave(tableId: string, userId: string): Promise<TableDoc> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        const table = await this.#table(tableId);
        const seat = seatOf(table, userId);
        if (seat === null) throw notInHand(tableId);
        const game = foldOut(table.game, seat);
        // At a tournament under way there is nothing to cash out: the member is out, and their
        // chips leave play.
        if (isRunning(table))
          return (await this.#moves.commit(table, forfeited(table, game, seat))) ?? CONFLICT;
        return (await this.#moves.cashOut(table, game, [seat])) ?? CONFLICT;
      },
      `${userId} leaving poker table ${tableId}`,
    );
  }

  /**
   * Closes the table: a hand in play is called off and every stack is cashed out. Buy-ins
   * still in flight are decided first (holds.ts): called off, so their Cookies can never reach
   * the pot, or found in the pot, and then cashed out with the rest. A closed table holds
   * nothing once its cash-outs are paid. `step`: a timer's, the game step it found idle.
   */
  close(tableId: string, actorId: string | null, step?: number): Promise<TableDoc> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        let table = await this.#table(tableId);
        if (actorId !== null && actorId !== table.hostId)
          throw hostOnly(table.hostId, 'poker:errors.hostCloses');
        // A tournament under way ends when one player holds every chip, not when someone says so.
        if (isRunning(table))
          throw invalidInputText('the tournament is under way', 'poker:errors.sngRunning');
        if (table.status === 'closed' && table.pending.length === 0) return table;
        // A timer closes the table it saw: one a member moved since (a Deal) stays open.
        if (step !== undefined && table.step !== step && table.status !== 'closed') return table;
        const decided = new Map<string, HoldDoc>();
        for (const move of table.pending.filter((m) => m.kind === 'buyin' && m.state === 'applying')) {
          decided.set(move.op, await this.#moves.buyInHold(table, move, true));
        }
        table = await this.#table(tableId);
        if (step !== undefined && table.step !== step && table.status !== 'closed') return table;
        const buyIns = table.pending.filter((m) => m.kind === 'buyin' && m.state === 'applying');
        if (!buyIns.every((m) => decided.has(m.op))) return CONFLICT; // another Sit arrived meanwhile
        for (const move of buyIns) {
          table =
            decided.get(move.op)?.state === 'posted' ? absorbMove(table, move) : withoutMove(table, move.op);
        }
        const game = cancelHand(table.game);
        const seats = game.seats.flatMap((s, i) => (s ? [i] : []));
        const closing = { ...table, status: 'closed' as const, closedAt: this.deps.clock.now() };
        const next = await this.#moves.cashOut(closing, game, seats);
        if (!next) return CONFLICT;
        return table.pending.length > 0 ? this.finishMoves(tableId) : next;
      },
      `closing poker table ${tableId}`,
    );
  }

  /** The member's hole cards in the hand in play (the "My cards" button). */
  async cards(tableId: string, userId: string): Promise<Card[]> {
    const table = await this.#table(tableId);
    const seat = seatOf(table, userId);
    const hand = table.game.hand;
    const p = hand?.players.find((x) => x.seat === seat && x.userId === userId);
    if (seat !== null && !p && hand && hand.street !== 'done') throw nextHandOnly(tableId);
    if (!p) throw notInHand(tableId);
    return p.hole;
  }

  /** Remembers the board message (the first press on it tells its id). */
  async rememberMessage(table: TableDoc, messageId: string | null): Promise<void> {
    if (messageId && table.messageId !== messageId) await this.deps.tables.setMessage(table._id, messageId);
  }

  /** Finishes every Cookie operation of the table a crash left half-done (its timer; safe to repeat). */
  finishMoves(tableId: string): Promise<TableDoc> {
    return this.#moves.finishMoves(tableId);
  }

  /** The table's timers; `onChanged` tells the people at a table what a timer did to it. */
  tasks(
    onChanged: (table: TableDoc, outcome: TimedOutcome) => Promise<void> = async () => {},
  ): TaskHandler[] {
    return this.#timers.tasks(this, onChanged);
  }

  async #table(tableId: string): Promise<TableDoc> {
    const table = await this.deps.tables.get(tableId);
    if (!table) throw new AppError('STALE_CONTROL', `table ${tableId} is gone`, { tableId });
    return table;
  }
}

/** A table's own controls (start, close) are its host's: the refusal says who the host is. */
function hostOnly(hostId: string, messageKey: string): AppError {
  return invalidInputText(`only the host ${hostId} may do this`, messageKey, { host: hostId });
}
