import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { AppError, featureDisabled, invalidInputText, isAppError, notYourButton } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../cookieEconomy.js';
import type { HoldDoc, HoldOwner, Holds } from '../holds/holds.js';
import { insufficientFunds } from '../ledger/errors.js';
import {
  act,
  type Card,
  cancelHand,
  FULL_DECK,
  foldOut,
  type Game,
  MAX_SEATS,
  type PokerAction,
  playableSeats,
  startHand,
} from './engine.js';
import { absorbMove, withoutMove } from './tableBooks.js';
import type { PendingMove, TableDoc, TableStore } from './tableStore.js';

declare module '../../src/features/feature.js' {
  interface FeatureServices {
    poker: PokerService;
  }
}

interface PokerDeps {
  economy: CookieEconomy;
  holds: Holds;
  tables: TableStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  rng: Rng;
  log: Logger;
  /** A fresh shuffled deck per hand (tests inject theirs). */
  shuffle?: () => Card[];
  /** Named points of a Cookie operation, for the crash tests (like the ledger's steps). */
  hooks?: { step(step: PokerStep, op: string): void };
}

/** Where a crash test may stop a Cookie operation of a table (besides the ledger's own steps). */
export type PokerStep = 'intent.persisted' | 'state.absorbed';

const TASK = {
  moves: 'poker.moves',
  turn: 'poker.turn',
  deal: 'poker.deal',
  idle: 'poker.idle',
} as const;
/** A Cookie operation left half-done is finished by its table's timer this much later. */
const MOVES_AFTER_MS = 60_000;

/**
 * Poker tables (PRODUCT.md §1, "Game settlement"). Chips live in the table; only a buy-in, a
 * cash-out (or refund) and the rake cross into Cookies, each through the table's pot account
 * with its own operation id and a marker in `appliedCookieOperations`. A Cookie operation's
 * lifecycle (ECONOMY.md, "Poker"):
 * 1. the intent is persisted with the table state: a pending move (`applying`) and its marker;
 * 2. the ledger applies the operation (its id makes a retry a replay);
 * 3. the state absorbs it (seat stack, confirmed totals; the move becomes `applied`);
 * 4. the ledger's record of it is read back, and only then the move and its marker go (the
 *    field is unset when the last one goes).
 * A timer per operation (and the timers of every table) finish any of these a crash left.
 */
export class PokerService {
  constructor(private readonly deps: PokerDeps) {
    // A table's hold past its deadline is its table's business: the table finishes its moves.
    deps.holds.own('poker', {
      onExpiry: async (hold) => {
        await this.finishMoves(hold.owner.id);
        return 'handled';
      },
    });
  }

  async create(request: {
    tableId: string;
    hostId: string;
    smallBlind?: number;
    maxBuyIn?: number;
    channelId: string | null;
    locale: string;
  }): Promise<TableDoc> {
    const c = this.deps.runtimeConfig;
    if (!(await c.get('poker.enabled'))) throw featureDisabled('poker:errors.pokerDisabled', 'poker.enabled');
    const smallBlind = request.smallBlind ?? (await c.get('poker.small_blind'));
    const maxBuyIn = request.maxBuyIn ?? (await c.get('poker.max_buy_in'));
    const minBuyIn = smallBlind * 2 * (await c.get('poker.min_buy_in_bb'));
    if (maxBuyIn < minBuyIn) {
      throw invalidInputText('max buy-in below the minimum', 'poker:errors.buyInRange', {
        min: minBuyIn,
        max: maxBuyIn,
      });
    }
    const now = this.deps.clock.now();
    const table: TableDoc = {
      _id: request.tableId,
      hostId: request.hostId,
      channelId: request.channelId,
      messageId: null,
      locale: request.locale,
      status: 'open',
      game: {
        seats: Array.from({ length: MAX_SEATS }, () => null),
        button: -1,
        smallBlind,
        bigBlind: smallBlind * 2,
        rakePct: await c.get('poker.rake_pct'),
        rakeCap: await c.get('poker.rake_cap'),
        hand: null,
        handsPlayed: 0,
      },
      minBuyIn,
      maxBuyIn,
      version: 0,
      step: 0,
      pending: [],
      chips: { in: 0, out: 0, rake: 0 },
      sittings: Array.from({ length: MAX_SEATS }, () => 0),
      createdAt: now,
      lastActionAt: now,
      stepAt: now,
    };
    await this.deps.tables.create(table);
    await this.#scheduleIdle(table);
    return table;
  }

  get(tableId: string): Promise<TableDoc | null> {
    return this.deps.tables.get(tableId);
  }

  /** Sits the member down with `buyIn` Cookies turned into chips. */
  async join(tableId: string, userId: string, buyIn: number): Promise<TableDoc> {
    const table = await this.#table(tableId);
    if (table.status === 'closed') throw tableClosed(tableId);
    const sitting = seatOf(table, userId);
    const hand = table.game.hand;
    const inHand = hand !== null && hand.street !== 'done' && hand.players.some((p) => p.seat === sitting);
    // A seated member may buy in again only when busted, not in the hand in play, and not
    // already buying in (two Sit presses at once: the second finds the first's move).
    const buying = table.pending.some((m) => m.kind === 'buyin' && m.userId === userId);
    if (buying || (sitting !== null && ((table.game.seats[sitting]?.stack ?? 1) > 0 || inHand))) {
      throw invalidInputText('already seated', 'poker:errors.alreadySeated');
    }
    if (buyIn < table.minBuyIn || buyIn > table.maxBuyIn) {
      throw invalidInputText(
        `buy-in ${buyIn} outside ${table.minBuyIn}..${table.maxBuyIn}`,
        'poker:errors.buyInRange',
        {
          min: table.minBuyIn,
          max: table.maxBuyIn,
          buyIn,
        },
      );
    }
    const balance = await this.deps.economy.balance(userId);
    if (balance < buyIn) throw insufficientFunds('cookies', userId, balance, buyIn);
    const seat =
      sitting ??
      table.game.seats.findIndex(
        (s, i) => s === null && !table.pending.some((m) => m.seat === i && m.kind === 'buyin'),
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
    await this.#scheduleMoves(tableId, move.op);
    const reserved = await this.deps.tables.swap(table, {
      ...table,
      pending: [...table.pending, move],
      appliedCookieOperations: [...(table.appliedCookieOperations ?? []), move.op],
      sittings: table.sittings.map((count, i) => (i === seat ? n : count)),
      lastActionAt: this.deps.clock.now(),
    });
    if (!reserved) return this.join(tableId, userId, buyIn);
    this.deps.hooks?.step('intent.persisted', move.op);
    return this.#runMove(reserved, move);
  }

  /** Deals the first hand (the host, or the start timer); later hands follow by themselves. */
  async start(tableId: string, actorId: string | null): Promise<TableDoc> {
    // A timer (actorId null) deals as well, but is no sign of life at the table.
    const table = await this.#table(tableId);
    if (actorId !== null && actorId !== table.hostId) throw notYourButton(table.hostId);
    if (table.status === 'closed') throw tableClosed(tableId);
    if (table.game.hand && table.game.hand.street !== 'done') return table;
    if (playableSeats(table.game).length < 2) {
      throw invalidInputText('a hand needs two players with chips', 'poker:errors.needTwo');
    }
    const dealt = await this.#commit(
      table,
      { ...table, status: 'playing', game: startHand(table.game, this.#deck()) },
      actorId !== null,
    );
    return dealt ?? this.start(tableId, actorId);
  }

  /**
   * A member's action. `step` is the game step their board showed: a second press of the
   * same button, or a press on an older board, changes nothing and gets the table as it is
   * now. Writes that are not moves (a buy-in landing) do not make a board old.
   */
  async act(
    tableId: string,
    userId: string,
    action: PokerAction,
    step: number,
    byMember = true,
  ): Promise<TableDoc> {
    for (;;) {
      const table = await this.#table(tableId);
      if (table.step !== step) return table;
      const hand = table.game.hand;
      if (!hand || hand.street === 'done') return table;
      const seat = seatOf(table, userId);
      if (seat === null || !hand.players.some((p) => p.seat === seat)) throw notInHand(tableId);
      if (hand.toAct !== seat) throw invalidInputText('not your turn', 'poker:errors.notYourTurn');
      const next = await this.#commit(table, { ...table, game: act(table.game, seat, action) }, byMember);
      if (next) return next;
    }
  }

  /** Leaves the table: folded if in a hand, then the stack is cashed out. */
  async leave(tableId: string, userId: string): Promise<TableDoc> {
    for (;;) {
      const table = await this.#table(tableId);
      const seat = seatOf(table, userId);
      if (seat === null) throw notInHand(tableId);
      const game = foldOut(table.game, seat);
      const next = await this.#cashOut(table, game, [seat]);
      if (next) return next;
    }
  }

  /**
   * Closes the table: a hand in play is called off and every stack is cashed out. Buy-ins
   * still in flight are decided first (holds.ts): called off, so their Cookies can never reach
   * the pot, or found in the pot, and then cashed out with the rest. A closed table holds
   * nothing once its cash-outs are paid.
   */
  async close(tableId: string, actorId: string | null): Promise<TableDoc> {
    for (;;) {
      let table = await this.#table(tableId);
      if (actorId !== null && actorId !== table.hostId) throw notYourButton(table.hostId);
      if (table.status === 'closed' && table.pending.length === 0) return table;
      const decided = new Map<string, HoldDoc>();
      for (const move of table.pending.filter((m) => m.kind === 'buyin' && m.state === 'applying')) {
        decided.set(move.op, await this.#buyInHold(table, move, true));
      }
      table = await this.#table(tableId);
      const buyIns = table.pending.filter((m) => m.kind === 'buyin' && m.state === 'applying');
      if (!buyIns.every((m) => decided.has(m.op))) continue; // another Sit arrived meanwhile
      for (const move of buyIns) {
        table =
          decided.get(move.op)?.state === 'posted' ? absorbMove(table, move) : withoutMove(table, move.op);
      }
      const game = cancelHand(table.game);
      const seats = game.seats.flatMap((s, i) => (s ? [i] : []));
      const next = await this.#cashOut({ ...table, status: 'closed' }, game, seats);
      if (next) return table.pending.length > 0 ? this.finishMoves(tableId) : next;
    }
  }

  /** The member's hole cards in the hand in play (the "My cards" button). */
  async cards(tableId: string, userId: string): Promise<Card[]> {
    const table = await this.#table(tableId);
    const seat = seatOf(table, userId);
    const p = table.game.hand?.players.find((x) => x.seat === seat);
    if (!p) throw notInHand(tableId);
    return p.hole;
  }

  /** Remembers the board message (the first press on it tells its id). */
  async rememberMessage(table: TableDoc, messageId: string | null): Promise<void> {
    if (messageId && table.messageId !== messageId) await this.deps.tables.setMessage(table._id, messageId);
  }

  /** Finishes every Cookie operation of the table a crash left half-done (its timer; safe to repeat). */
  async finishMoves(tableId: string): Promise<TableDoc> {
    let table = await this.#table(tableId);
    for (const move of [...table.pending]) table = await this.#runMove(table, move, true);
    const stray = (table.appliedCookieOperations ?? []).filter(
      (op) => !table.pending.some((m) => m.op === op),
    );
    if (stray.length > 0) {
      const cleaned = await this.deps.tables.swap(table, {
        ...table,
        appliedCookieOperations: (table.appliedCookieOperations ?? []).filter((op) => !stray.includes(op)),
      });
      table = cleaned ?? (await this.#table(tableId));
    }
    return table;
  }

  /** The table's timers; `onChanged` shows a table a timer moved on (the board message is edited). */
  tasks(onChanged: (table: TableDoc) => Promise<void> = async () => {}): TaskHandler[] {
    const table = z.object({ tableId: z.string() });
    const changed = async (tableId: string) => {
      const t = await this.deps.tables.get(tableId);
      if (t) await onChanged(t);
    };
    const stepped = table.extend({ step: z.number().int() });
    return [
      defineTask(TASK.moves, table, async ({ tableId }) => {
        await this.finishMoves(tableId);
      }),
      // The player to act let the clock run out: a check when free, else a fold.
      defineTask(TASK.turn, stepped, async ({ tableId, step }) => {
        const t = await this.deps.tables.get(tableId);
        const hand = t?.game.hand;
        if (!t || t.step !== step || !hand || hand.toAct === null || hand.street === 'done') return;
        if (await this.#abandoned(t)) await this.close(tableId, null);
        else {
          const p = hand.players.find((x) => x.seat === hand.toAct);
          const free = p !== undefined && p.committed >= hand.currentBet;
          await this.act(tableId, p?.userId ?? '', { type: free ? 'check' : 'fold' }, step, false);
        }
        await changed(tableId);
      }),
      // The next hand (or the first, when the host did not start it): only if nothing moved since.
      defineTask(TASK.deal, stepped, async ({ tableId, step }) => {
        const t = await this.deps.tables.get(tableId);
        if (!t || t.step !== step || t.status === 'closed' || playableSeats(t.game).length < 2) return;
        if (await this.#abandoned(t)) await this.close(tableId, null);
        else await this.start(tableId, null);
        await changed(tableId);
      }),
      // Nothing moved for poker.idle_close_s: the table closes and everyone is cashed out.
      defineTask(TASK.idle, stepped, async ({ tableId, step }) => {
        const t = await this.deps.tables.get(tableId);
        if (!t || t.step !== step || t.status === 'closed') return;
        await this.close(tableId, null);
        await changed(tableId);
      }),
    ];
  }

  /**
   * Persists a new state after an action or a deal: the rake of a finished hand becomes a
   * pending move; then the timers that follow from the state are scheduled.
   */
  async #commit(table: TableDoc, next: TableDoc, byMember = true): Promise<TableDoc | null> {
    const hand = next.game.hand;
    const finishedNow = hand?.street === 'done' && table.game.hand?.street !== 'done';
    const rake = finishedNow ? (hand?.result?.rake ?? 0) : 0;
    let pending = next.pending;
    let markers = next.appliedCookieOperations ?? [];
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
      await this.#scheduleMoves(table._id, rakeMove.op);
      pending = [...pending, rakeMove];
      markers = [...markers, rakeMove.op];
    }
    const saved = await this.deps.tables.swap(table, {
      ...next,
      step: table.step + 1,
      pending,
      appliedCookieOperations: markers,
      lastActionAt: byMember ? this.deps.clock.now() : table.lastActionAt,
      stepAt: this.deps.clock.now(),
    });
    if (!saved) return null;
    await this.#scheduleTimers(saved);
    return rakeMove ? this.#runMove(saved, rakeMove) : saved;
  }

  /** Takes the seats' stacks off the table as pending cash-outs (one state change), then pays them. */
  async #cashOut(table: TableDoc, game: Game, seats: number[]): Promise<TableDoc | null> {
    const now = this.deps.clock.now();
    const moves: PendingMove[] = [];
    const g = structuredClone(game);
    for (const seat of seats) {
      const s = g.seats[seat];
      if (!s) continue;
      if (s.stack > 0) {
        const n = s.sitting ?? 0;
        moves.push({
          op: `poker_cashout:${table._id}:${seat}:${n}`,
          kind: 'cashout',
          seat,
          userId: s.userId,
          amount: s.stack,
          sitting: n,
          state: 'applying',
          at: now,
        });
      }
      g.seats[seat] = null;
    }
    for (const move of moves) await this.#scheduleMoves(table._id, move.op);
    // A closing table empties every seat; busted ones (no chips) have nothing to cash out.
    if (table.status === 'closed') g.seats = g.seats.map(() => null);
    const saved = await this.#commit(table, {
      ...table,
      game: g,
      pending: [...table.pending, ...moves],
      appliedCookieOperations: [...(table.appliedCookieOperations ?? []), ...moves.map((m) => m.op)],
    });
    if (!saved) return null;
    let after = saved;
    for (const move of moves) {
      this.deps.hooks?.step('intent.persisted', move.op);
      after = await this.#runMove(after, move);
    }
    return after;
  }

  /**
   * Steps 2–4 of a Cookie operation, through a hold (utils/holds/) owned by the table. A
   * buy-in is reserved from the member and posted into the table's pot, and only then do the
   * chips appear on the seat; a cash-out or the rake is reserved from the pot and posted to
   * the member or the vault. `recovering` (the timer, a close): a buy-in not yet posted is
   * called off (its hold voided, so a reserve still in flight can never land), never posted.
   */
  async #runMove(table: TableDoc, move: PendingMove, recovering = false): Promise<TableDoc> {
    if (move.state === 'applied') return this.#settleMove(table._id, move, 'confirm');
    const hold =
      move.kind === 'buyin'
        ? await this.#buyInHold(table, move, recovering)
        : await this.#payOutHold(table, move);
    if (hold.state !== 'posted') {
      // Voided or refused: nothing of it reached the pot, and nothing ever will.
      const after = await this.#settleMove(table._id, move, 'drop');
      if (recovering) return after;
      if (after.status === 'closed') throw tableClosed(table._id);
      throw new AppError('ACCOUNT_CLOSED', `buy-in ${move.op} was called off before it reached the table`, {
        opId: move.op,
      });
    }
    const absorbed = await this.#settleMove(table._id, move, 'absorb');
    this.deps.hooks?.step('state.absorbed', move.op);
    return absorbed;
  }

  async #buyInHold(table: TableDoc, move: PendingMove, recovering: boolean): Promise<HoldDoc> {
    const request = {
      id: move.op,
      currency: 'cookies' as const,
      from: move.userId,
      amount: move.amount,
      kind: COOKIE_KINDS.pokerBuyIn,
      source: move.userId,
      owner: this.#owner(table._id),
      ttlMs: MOVES_AFTER_MS,
    };
    if (recovering) return this.deps.holds.cancel(request);
    try {
      await this.deps.holds.reserve(request);
    } catch (error) {
      if (!isAppError(error, 'INSUFFICIENT_COOKIES')) throw error;
      await this.#settleMove(table._id, move, 'drop');
      throw error;
    }
    return this.deps.holds.post(move.op, [
      { to: this.#pot(table._id), amount: move.amount, kind: request.kind },
    ]);
  }

  /** A cash-out or the rake is owed the moment the chips left the table: it is always posted. */
  async #payOutHold(table: TableDoc, move: PendingMove): Promise<HoldDoc> {
    const rake = move.kind === 'rake';
    const kind = rake ? COOKIE_KINDS.pokerRake : COOKIE_KINDS.pokerCashOut;
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
        ttlMs: MOVES_AFTER_MS,
        owed: true,
      }));
    return this.deps.holds.post(held._id, [
      { to: rake ? this.deps.economy.house : move.userId, amount: move.amount, kind },
    ]);
  }

  /** One guarded state change of a pending move: absorb it into the state, confirm it, or drop it. */
  async #settleMove(
    tableId: string,
    move: PendingMove,
    step: 'absorb' | 'confirm' | 'drop',
  ): Promise<TableDoc> {
    for (;;) {
      const t = await this.#table(tableId);
      const current = t.pending.find((m) => m.op === move.op);
      if (!current) return t;
      const saved = await this.deps.tables.swap(
        t,
        step === 'absorb' ? absorbMove(t, current) : withoutMove(t, move.op),
      );
      if (saved) {
        // A seat that just got its chips may make a table startable.
        if (step === 'absorb' && move.kind === 'buyin') await this.#scheduleTimers(saved);
        return saved;
      }
    }
  }

  #owner(tableId: string): HoldOwner {
    return { kind: 'poker', id: tableId };
  }

  #pot(tableId: string): string {
    return this.deps.economy.pot('poker', tableId);
  }

  /** No member acted for poker.idle_close_s (timers keep a hand moving, but are no sign of life). */
  async #abandoned(table: TableDoc): Promise<boolean> {
    const idleS = await this.deps.runtimeConfig.get('poker.idle_close_s');
    return this.deps.clock.now().getTime() - table.lastActionAt.getTime() >= idleS * 1000;
  }

  async #scheduleTimers(table: TableDoc): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const hand = table.game.hand;
    const payload = { tableId: table._id, step: table.step };
    if (table.status === 'closed') return;
    if (hand && hand.street !== 'done' && hand.toAct !== null) {
      const turnS = await this.deps.runtimeConfig.get('poker.turn_s');
      await this.#schedule(TASK.turn, `${table._id}:${table.step}`, now + turnS * 1000, payload);
      return;
    }
    if (table.status === 'playing' && playableSeats(table.game).length >= 2) {
      const nextS = await this.deps.runtimeConfig.get('poker.next_hand_s');
      await this.#schedule(TASK.deal, `${table._id}:${table.step}`, now + nextS * 1000, payload);
      return;
    }
    if (table.status === 'open' && playableSeats(table.game).length >= 2) {
      const startS = await this.deps.runtimeConfig.get('poker.start_delay_s');
      await this.#schedule(TASK.deal, `${table._id}:${table.step}:start`, now + startS * 1000, payload);
    }
    await this.#scheduleIdle(table);
  }

  async #scheduleIdle(table: TableDoc): Promise<void> {
    const idleS = await this.deps.runtimeConfig.get('poker.idle_close_s');
    await this.#schedule(
      TASK.idle,
      `${table._id}:${table.step}`,
      this.deps.clock.now().getTime() + idleS * 1000,
      {
        tableId: table._id,
        step: table.step,
      },
    );
  }

  async #scheduleMoves(tableId: string, op: string): Promise<void> {
    await this.#schedule(TASK.moves, op, this.deps.clock.now().getTime() + MOVES_AFTER_MS, { tableId });
  }

  async #schedule(kind: string, id: string, at: number, payload: unknown): Promise<void> {
    await this.deps.scheduler.schedule({ id: `${kind}:${id}`, kind, dueAt: new Date(at), payload });
  }

  #deck(): Card[] {
    if (this.deps.shuffle) return this.deps.shuffle();
    // Fisher–Yates over the injected generator (crypto.randomInt in the bot).
    const deck = [...FULL_DECK];
    for (let i = deck.length - 1; i > 0; i--) {
      const j = this.deps.rng.int(0, i + 1);
      [deck[i], deck[j]] = [deck[j] as Card, deck[i] as Card];
    }
    return deck;
  }

  async #table(tableId: string): Promise<TableDoc> {
    const table = await this.deps.tables.get(tableId);
    if (!table) throw new AppError('STALE_CONTROL', `table ${tableId} is gone`, { tableId });
    return table;
  }
}

/** The seat the member sits in (a pending buy-in counts), or null. */
export function seatOf(table: TableDoc, userId: string): number | null {
  const seat = table.game.seats.findIndex((s) => s?.userId === userId);
  if (seat >= 0) return seat;
  return table.pending.find((m) => m.kind === 'buyin' && m.userId === userId)?.seat ?? null;
}

function tableClosed(tableId: string): AppError {
  return invalidInputText(`table ${tableId} is closed`, 'poker:errors.tableClosed');
}

function notInHand(tableId: string): AppError {
  return invalidInputText(`not seated at ${tableId}`, 'poker:errors.notSeated');
}
