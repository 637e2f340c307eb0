import type { Clock } from '../../src/clock.js';
import { CONFLICT, CONFLICT_RETRY_LIMIT, retryOnConflict } from '../../src/db/retryOnConflict.js';
import { AppError, isAppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { HoldDoc, HoldOwner, Holds } from '../money/holds/holds.js';
import type { Game } from './engine.js';
import { tableClosed } from './errors.js';
import { endOfHand } from './handEnd.js';
import { handRecordOf } from './handRecord.js';
import type { HandStore } from './handStore.js';
import { finished, isDecided } from './sitAndGo.js';
import { absorbMove, withoutMove } from './tableBooks.js';
import type { PendingMove, TableDoc, TableStore } from './tableStore.js';
import type { TableTimers } from './tableTimers.js';

/** The ledger kind of each move that pays out of a table's pot. */
const PAY_OUT_KINDS = {
  cashout: COOKIE_KINDS.pokerCashOut,
  rake: COOKIE_KINDS.pokerRake,
  prize: COOKIE_KINDS.pokerPrize,
} as const;

/** Where a crash test may stop a Cookie operation of a table (besides the ledger's own steps). */
export type PokerStep = 'intent.persisted' | 'state.absorbed';

interface TableMovesDeps {
  economy: CookieEconomy;
  holds: Holds;
  tables: TableStore;
  clock: Clock;
  timers: TableTimers;
  hands: HandStore;
  log: Logger;
  /** Named points of a Cookie operation, for the crash tests (like the ledger's steps). */
  hooks?: { step(step: PokerStep, op: string): void };
  /** The table as it is now (refused when it is gone). */
  table(tableId: string): Promise<TableDoc>;
}

/**
 * A table's writes and the Cookie operations they start (the lifecycle is on `PokerService`):
 * every new state is persisted here, with the rake of a finished hand and the cash-outs of
 * leaving seats as pending moves, and every pending move is carried to its end here, by the
 * press that made it or by its timer.
 */
export class TableMoves {
  constructor(private readonly deps: TableMovesDeps) {
    // A table's hold past its deadline is its table's business: the table finishes its moves.
    deps.holds.own('poker', {
      onExpiry: async (hold) => {
        await this.finishMoves(hold.owner.id);
        return 'handled';
      },
    });
  }

  /** Finishes every Cookie operation of the table a crash left half-done (its timer; safe to repeat). */
  async finishMoves(tableId: string): Promise<TableDoc> {
    let table = await this.deps.table(tableId);
    await this.#keepRecord(table);
    for (const move of [...table.pending]) table = await this.runMove(table, move, true);
    return table;
  }

  /**
   * Persists a new state after an action or a deal: a finished hand stands its busted players
   * up and its rake becomes a pending move; then the timers that follow from the state are
   * scheduled.
   */
  async commit(table: TableDoc, played: TableDoc, byMember = true): Promise<TableDoc | null> {
    const now = this.deps.clock.now();
    const finishedNow = played.game.hand?.street === 'done' && table.game.hand?.street !== 'done';
    const ended = finishedNow ? endOfHand(table, played, byMember) : played;
    // A tournament's last hand (or a forfeit) left one player with chips: it ends, and its
    // prizes are pending moves of this same write.
    const next = isDecided(ended) ? finished(ended, now) : ended;
    const prizes = next.pending.filter(
      (m) => m.kind === 'prize' && !table.pending.some((p) => p.op === m.op),
    );
    for (const move of prizes) await this.deps.timers.scheduleMoves(table._id, move.op);
    const hand = next.game.hand;
    const dealtNow = hand !== null && hand.number !== table.game.hand?.number;
    const rake = finishedNow ? (hand?.result?.rake ?? 0) : 0;
    let pending = next.pending;
    let rakeMove: PendingMove | null = null;
    if (rake > 0 && hand) {
      rakeMove = {
        op: `poker_rake:${table._id}:${hand.number}`,
        kind: 'rake',
        seat: -1,
        userId: this.deps.economy.house,
        amount: rake,
        sitting: 0,
        state: 'applying',
        at: this.deps.clock.now(),
      };
      await this.deps.timers.scheduleMoves(table._id, rakeMove.op);
      pending = [...pending, rakeMove];
    }
    await this.#keepRecord(table);
    const saved = await this.deps.tables.swap(table, {
      ...next,
      step: table.step + 1,
      pending,
      lastActionAt: byMember ? now : table.lastActionAt,
      stepAt: now,
      // The same instant as a dealer's action: a hand counts as played only after it.
      ...(dealtNow ? { dealtAt: now } : {}),
    });
    if (!saved) return null;
    await this.deps.timers.scheduleTimers(saved);
    await this.deps.timers.dropTimers(table);
    if (finishedNow) await this.#record(saved);
    let after = rakeMove ? await this.runMove(saved, rakeMove) : saved;
    for (const move of prizes) {
      this.deps.hooks?.step('intent.persisted', move.op);
      after = await this.runMove(after, move);
    }
    return after;
  }

  /**
   * Writes the record of the hand that just ended. A failure (or a crash before it) loses
   * nothing: the ended hand stays in the table's state until the next deal replaces it, and
   * every later write of the table, and its moves timer, write the record first if it is
   * missing (`#keepRecord`). The record is keyed by the hand, so a second writer changes nothing.
   */
  async #record(table: TableDoc): Promise<void> {
    const record = handRecordOf(table);
    if (!record) return;
    await this.deps.hands.record(record).catch((error: unknown) => {
      this.deps.log.warn(
        { event: 'poker.hand_record_deferred', tableId: table._id, err: error },
        'a hand record is written at the next write of its table',
      );
    });
  }

  /** The ended hand still in the table's state is recorded before anything replaces it. */
  async #keepRecord(table: TableDoc): Promise<void> {
    const record = handRecordOf(table);
    if (record && !(await this.deps.hands.has(record._id))) await this.deps.hands.record(record);
  }

  /**
   * Takes the seats' stacks off the table as pending cash-outs (one state change), then pays
   * them. At a tournament not started yet, each registration gets its buy-in back instead, and
   * its starting stack leaves play.
   */
  async cashOut(table: TableDoc, game: Game, seats: number[]): Promise<TableDoc | null> {
    const now = this.deps.clock.now();
    const moves: PendingMove[] = [];
    const g = structuredClone(game);
    let sng = table.sng;
    for (const seat of seats) {
      const s = g.seats[seat];
      if (!s) continue;
      if (sng) sng = { ...sng, retired: sng.retired + s.stack };
      if (s.stack > 0) {
        const n = s.sitting ?? 0;
        moves.push({
          op: `poker_cashout:${table._id}:${seat}:${n}`,
          kind: 'cashout',
          seat,
          userId: s.userId,
          amount: sng ? sng.buyIn : s.stack,
          sitting: n,
          state: 'applying',
          at: now,
        });
      }
      g.seats[seat] = null;
    }
    for (const move of moves) await this.deps.timers.scheduleMoves(table._id, move.op);
    // A closing table empties every seat; busted ones (no chips) have nothing to cash out.
    if (table.status === 'closed') g.seats = g.seats.map(() => null);
    const saved = await this.commit(table, {
      ...table,
      game: g,
      pending: [...table.pending, ...moves],
      ...(sng ? { sng } : {}),
    });
    if (!saved) return null;
    let after = saved;
    for (const move of moves) {
      this.deps.hooks?.step('intent.persisted', move.op);
      after = await this.runMove(after, move);
    }
    return after;
  }

  /**
   * Steps 2–4 of a Cookie operation, through a hold (utils/money/holds/) owned by the table. A
   * buy-in is reserved from the member and posted into the table's pot, and only then do the
   * chips appear on the seat; a cash-out or the rake is reserved from the pot and posted to
   * the member or the vault. `recovering` (the timer, a close): a buy-in not yet posted is
   * called off (its hold voided, so a reserve still in flight can never land), never posted.
   */
  async runMove(table: TableDoc, move: PendingMove, recovering = false): Promise<TableDoc> {
    if (move.state === 'applied') return this.#changeMove(table._id, move, 'confirm');
    const hold =
      move.kind === 'buyin'
        ? await this.buyInHold(table, move, recovering)
        : await this.#payOutHold(table, move);
    if (hold.state !== 'posted') {
      // Voided or refused: nothing of it reached the pot, and nothing ever will.
      const after = await this.#changeMove(table._id, move, 'drop');
      if (recovering) return after;
      if (after.status === 'closed') throw tableClosed(table._id);
      throw new AppError('ACCOUNT_CLOSED', `buy-in ${move.op} was called off before it reached the table`, {
        opId: move.op,
      });
    }
    const absorbed = await this.#changeMove(table._id, move, 'absorb');
    this.deps.hooks?.step('state.absorbed', move.op);
    return absorbed;
  }

  async buyInHold(table: TableDoc, move: PendingMove, recovering: boolean): Promise<HoldDoc> {
    const request = {
      id: move.op,
      currency: 'cookies' as const,
      from: move.userId,
      amount: move.amount,
      kind: COOKIE_KINDS.pokerBuyIn,
      source: move.userId,
      owner: this.#owner(table._id),
      ttlMs: RECOVERY_GRACE_MS,
    };
    if (recovering) return this.deps.holds.cancel(request);
    try {
      await this.deps.holds.reserve(request);
    } catch (error) {
      if (!isAppError(error, 'INSUFFICIENT_COOKIES')) throw error;
      await this.#changeMove(table._id, move, 'drop');
      throw error;
    }
    return this.deps.holds.post(move.op, [
      { to: this.#pot(table._id), amount: move.amount, kind: request.kind },
    ]);
  }

  /** A cash-out, a prize or the rake is owed the moment it left the table's state: it is always posted. */
  async #payOutHold(table: TableDoc, move: PendingMove): Promise<HoldDoc> {
    const rake = move.kind === 'rake';
    const kind = PAY_OUT_KINDS[move.kind === 'buyin' ? 'cashout' : move.kind];
    const held =
      (await this.deps.holds.get(move.op)) ??
      (await this.deps.holds.reserve({
        id: move.op,
        currency: 'cookies',
        from: this.#pot(table._id),
        amount: move.amount,
        kind,
        source: move.userId,
        owner: this.#owner(table._id),
        ttlMs: RECOVERY_GRACE_MS,
        owed: true,
      }));
    return this.deps.holds.post(held._id, [
      { to: rake ? this.deps.economy.house : move.userId, amount: move.amount, kind },
    ]);
  }

  /** One guarded state change of a pending move: absorb it into the state, confirm it, or drop it. */
  async #changeMove(
    tableId: string,
    move: PendingMove,
    step: 'absorb' | 'confirm' | 'drop',
  ): Promise<TableDoc> {
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        const t = await this.deps.table(tableId);
        const current = t.pending.find((m) => m.op === move.op);
        if (!current) return t;
        const saved = await this.deps.tables.swap(
          t,
          step === 'absorb' ? absorbMove(t, current) : withoutMove(t, move.op),
        );
        if (!saved) return CONFLICT;
        // A seat that just got its chips may make a table startable.
        if (step === 'absorb' && move.kind === 'buyin') await this.deps.timers.scheduleTimers(saved);
        return saved;
      },
      `the ${step} of ${move.op} at poker table ${tableId}`,
    );
  }

  #owner(tableId: string): HoldOwner {
    return { kind: 'poker', id: tableId };
  }

  #pot(tableId: string): string {
    return this.deps.economy.pot('poker', tableId);
  }
}
