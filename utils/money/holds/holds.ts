import type { Db } from 'mongodb';
import { z } from 'zod';
import type { Clock } from '../../../src/clock.js';
import { AppError, isAppError } from '../../../src/errors.js';
import type { Logger } from '../../../src/logger.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../../src/scheduler/scheduler.js';
import { HOLD_PREFIX, type Ledger } from '../ledger/ledger.js';
import type { CreditInput } from '../ledger/operationSpec.js';
import {
  type HoldOwnerRules,
  holdAccount,
  planPostings,
  type ReserveRequest,
  stillOpen,
} from './holdRules.js';
import {
  EXPIRE_TASK,
  type PlannedHold,
  plannedHold,
  planSweep,
  planTimers,
  pruneHolds,
  recordUnarrived,
  SWEEP_TASK,
  slotOf,
  sweepHolds,
} from './holdUpkeep.js';

export { HOLDS_KEPT_MS, SWEEP_EVERY_MS, SWEEP_GRACE_MS } from './holdUpkeep.js';

import { type HoldDoc, type HoldOwner, type HoldState, HoldStore, type Posting } from './holdStore.js';

declare module '../../../src/deps.js' {
  interface MoneyLayer {
    /** Money in play: every stake, buy-in, pot share, promised reward. */
    holds: Holds;
  }
}

export type { ExpiryDecision, HoldOwnerRules, ReserveRequest } from './holdRules.js';
export type { HoldDoc, HoldOwner, HoldState, Posting } from './holdStore.js';

export interface HoldsDeps {
  ledger: Ledger;
  store: HoldStore;
  scheduler: Scheduler;
  clock: Clock;
  log: Logger;
}

export const ENDED: readonly HoldState[] = ['posted', 'voided', 'refused'];

/**
 * Money in play, in one place (ECONOMY.md, "Money in play"), after TigerBeetle's two-phase
 * transfers: a feature `reserve`s value into a hold owned by its round, table, heist, claim or
 * rollback, then `post`s it (all or part, to one or several accounts) or `void`s it; a hold
 * left open past its deadline is ended by one durable timer, from any process, exactly once.
 *
 * - Every step is one guarded update of the hold's record and one ledger operation whose id
 *   derives from the hold (`hold:<id>:reserve`, `:post:<n>`, `:void`), so a retry, a second
 *   process or the timer repeat a step at most as a replay.
 * - The value sits in the hold's own account while held. Whether a reserve whose reply was
 *   lost arrived is never guessed: the account is closed if it is still empty (then the
 *   reserve's credit can never land) or found holding the value (then it is held).
 * - "Already posted", "already voided", "refused" are states in the answer, not exceptions.
 *
 * This module and `utils/money/ledger/` are the only code that asks the ledger about operations or
 * closes accounts (test/architecture/dataAccess.test.ts).
 */
export class Holds {
  readonly #rules = new Map<string, HoldOwnerRules>();

  constructor(private readonly deps: HoldsDeps) {}

  static ensureIndexes(db: Db): Promise<void> {
    return HoldStore.ensureIndexes(db);
  }

  /** An owner kind's rules for its holds that expire (a feature registers its own once). */
  own(kind: string, rules: HoldOwnerRules): void {
    this.#rules.set(kind, rules);
  }

  get(id: string): Promise<HoldDoc | null> {
    return this.deps.store.get(id);
  }

  ofOwner(owner: HoldOwner, states?: readonly HoldState[]): Promise<HoldDoc[]> {
    return this.deps.store.ofOwner(owner, states);
  }

  /** A member's money in play: the holds not yet ended that take from them, pay them or are theirs. */
  openInvolving(account: string): Promise<HoldDoc[]> {
    return this.deps.store.openInvolving(account);
  }

  /**
   * Takes `amount` from `from` into the hold. Returns the hold `held` (or as it already was,
   * for a retry); a refusal of the ledger (not enough Cookies, the vault's reserve) ends the
   * hold `refused` and is thrown, having moved nothing. A reserve that comes too late (its
   * timer decided it never arrived, or a retry past the first attempt's deadline) returns the
   * hold `refused`, having moved nothing: the caller calls its action off. An owed reserve is
   * never too late.
   */
  async reserve(request: ReserveRequest): Promise<HoldDoc> {
    const hold = await planTimers(
      this.deps.scheduler,
      this.#build(request, request.from === null ? 'held' : 'reserving'),
    );
    // Past its deadline (a retry of a first attempt that never arrived): refused for good, so
    // the first attempt, should it still arrive, finds the hold ended too. Owed value is never
    // called off: however late, it is reserved.
    const late = !request.owed && hold.deadline.getTime() <= this.deps.clock.now().getTime();
    const stored = late ? { ...hold, state: 'refused' as const, endedAt: this.deps.clock.now() } : hold;
    if (await this.deps.store.insert(stored)) {
      return stored.state === 'reserving' ? this.#takeReserve(stored) : stored;
    }
    // Its timer (or the owner's recovery) may have decided it never arrived: then it stays
    // `refused`, and this reserve moves nothing.
    const existing = await this.#hold(hold._id);
    if (existing.from !== hold.from || existing.amount !== hold.amount || existing.currency !== hold.currency)
      throw new AppError('OPERATION_ID_REUSED', `hold ${hold._id} was reserved for something else`, {
        opId: hold._id,
      });
    return existing.state === 'reserving' ? this.#takeReserve(existing) : existing;
  }

  /**
   * What became of a reserve that may still be in flight, decided for good: `held` if the value
   * arrived, `refused` otherwise (recorded so, when the reserve never started: a late reserve of
   * the same id then moves nothing). A hold already further on is returned as it is.
   */
  async decide(request: ReserveRequest): Promise<HoldDoc> {
    const hold = this.#build(request, 'refused');
    if (await this.deps.store.insert({ ...hold, endedAt: hold.createdAt })) return hold;
    const found = await this.#hold(request.id);
    return found.state === 'reserving' ? this.#decideReserve(found, 'refused') : found;
  }

  /**
   * Ends a hold that may not have been reserved yet (its owner's process died in between):
   * recorded `refused` when absent, so a late `reserve` of the same id finds it ended and moves
   * nothing; voided when it exists.
   */
  async cancel(request: ReserveRequest): Promise<HoldDoc> {
    const hold = this.#build(request, 'refused');
    if (await this.deps.store.insert({ ...hold, endedAt: hold.createdAt })) return hold;
    return this.void(request.id);
  }

  /**
   * Sends the held value where `postings` say (each a ledger operation `hold:<id>:post:<n>`).
   * `rest: 'return'` sends what the postings leave back to where it came from. Only the first
   * post of a hold decides: a later one (a retry, a race, the timer) finishes that one and
   * gets it back (`state: 'posted'`, its `postings`), and a voided hold stays voided.
   */
  async post(id: string, postings: Posting[], options: { rest?: 'return' } = {}): Promise<HoldDoc> {
    let hold = await this.#hold(id);
    if (hold.state === 'reserving') hold = await this.#decideReserve(hold, 'refused');
    if (hold.state === 'held') {
      const plan = planPostings(hold, postings, options.rest);
      hold =
        (await this.deps.store.move(id, ['held'], { state: 'posting', postings: plan })) ??
        (await this.#hold(id));
    }
    return hold.state === 'posting' ? this.#runPostings(hold) : this.#finishVoid(hold);
  }

  /** Returns the held value to where it came from (a promise is simply dropped). */
  async void(id: string): Promise<HoldDoc> {
    let hold = await this.#hold(id);
    if (hold.state === 'reserving') hold = await this.#decideReserve(hold, 'refused');
    if (hold.state === 'held') {
      hold = (await this.deps.store.move(id, ['held'], { state: 'voiding' })) ?? (await this.#hold(id));
    }
    return hold.state === 'posting' ? this.#runPostings(hold) : this.#finishVoid(hold);
  }

  /**
   * Ends a hold past its deadline as its owner's rules say (the timer; safe to repeat). A hold
   * whose reserve has not arrived is recorded refused, its account closed first, so a reserve
   * still on its way finds it ended and no credit can land on it.
   */
  async expire(id: string, planned?: PlannedHold): Promise<HoldDoc | null> {
    let hold =
      (await this.deps.store.get(id)) ?? (planned ? await recordUnarrived(this.deps, id, planned) : null);
    if (!hold || ENDED.includes(hold.state)) return hold;
    if (hold.state === 'reserving') hold = await this.#decideReserve(hold, 'refused');
    if (hold.state === 'held') {
      const decision = (await this.#rules.get(hold.owner.kind)?.onExpiry(hold)) ?? 'void';
      if (decision === 'handled') {
        hold = await this.#hold(id);
        if (!ENDED.includes(hold.state)) throw stillOpen(hold);
        return hold;
      }
      return decision === 'void' ? this.void(id) : this.post(id, decision.post);
    }
    return hold.state === 'posting' ? this.#runPostings(hold) : this.#finishVoid(hold);
  }

  tasks(): TaskHandler[] {
    return [
      // `planned` is absent from timers planned before it was added: those only end what exists.
      defineTask(
        EXPIRE_TASK,
        z.object({ holdId: z.string(), planned: plannedHold.optional() }),
        async ({ holdId, planned }) => {
          await this.expire(holdId, planned);
        },
      ),
      defineTask(SWEEP_TASK, z.object({ slot: z.number().int() }), async () => {
        await this.sweep();
      }),
    ];
  }

  /** Removes holds that ended over a week ago, and their accounts (`pruneHolds`). */
  prune(now: Date): Promise<{ holds: number; accounts: number }> {
    return pruneHolds(this.deps, now);
  }

  /** Plans a sweep now (a process that runs timers, at its start: holds left from before it). */
  planSweep(): Promise<void> {
    return planSweep(this.deps.scheduler, slotOf(this.deps.clock.now().getTime()));
  }

  /** Ends, as their timers would have, the holds still open past their deadline and its grace. */
  sweep(): Promise<{ swept: number; left: number }> {
    return sweepHolds(this.deps, (id) => this.expire(id));
  }

  #build(request: ReserveRequest, state: HoldState): HoldDoc {
    const now = this.deps.clock.now();
    return {
      _id: request.id,
      currency: request.currency,
      account: holdAccount(request.id),
      from: request.from,
      amount: request.amount,
      kind: request.kind,
      source: request.source,
      reason: request.reason ?? '',
      owner: request.owner,
      state,
      deadline: new Date(now.getTime() + request.ttlMs),
      createdAt: now,
      ...(request.owed ? { owed: true } : {}),
      ...(request.returnKind ? { returnKind: request.returnKind } : {}),
    };
  }

  async #takeReserve(hold: HoldDoc): Promise<HoldDoc> {
    try {
      await this.deps.ledger.transfer({
        opId: `${HOLD_PREFIX}${hold._id}:reserve`,
        currency: hold.currency,
        from: hold.from as string,
        to: hold.account,
        amount: hold.amount,
        kind: hold.kind,
        source: hold.source,
        reason: hold.reason,
      });
    } catch (error) {
      // Not applied, and known not to be (a refusal, "nothing moved, retry", a closed account).
      if (!hold.owed && isAppError(error) && error.code !== 'OPERATION_IN_PROGRESS') {
        const decided = await this.#decideReserve(hold, 'refused');
        if (decided.state === 'refused') throw error;
        return decided;
      }
      throw error;
    }
    return (await this.deps.store.move(hold._id, ['reserving'], { state: 'held' })) ?? this.#hold(hold._id);
  }

  /**
   * Decides a reserve whose outcome is not known, from the hold's account alone: if it is still
   * empty it is closed (no credit can ever land on it after that) and the hold ends `endAs`; if
   * the value is there, the hold is held. A leg still in flight is left to the ledger's
   * recovery: OPERATION_IN_PROGRESS, ask again later.
   */
  async #decideReserve(hold: HoldDoc, endAs: 'refused'): Promise<HoldDoc> {
    const now = await this.#hold(hold._id);
    if (now.state !== 'reserving') return now;
    // Owed value is never called off: its reserve is asked for again (a replay if it landed).
    if (now.owed) return this.#takeReserve(now);
    const found = await this.deps.ledger.closeAccount(hold.currency, hold.account);
    if (found.closed) {
      return (
        (await this.#ended(
          await this.deps.store.move(hold._id, ['reserving'], {
            state: endAs,
            endedAt: this.deps.clock.now(),
          }),
        )) ?? this.#hold(hold._id)
      );
    }
    if (found.balance === 0) throw stillOpen(hold);
    return (await this.deps.store.move(hold._id, ['reserving'], { state: 'held' })) ?? this.#hold(hold._id);
  }

  async #runPostings(hold: HoldDoc): Promise<HoldDoc> {
    for (const [i, posting] of (hold.postings ?? []).entries()) {
      const move = {
        opId: `${HOLD_PREFIX}${hold._id}:post:${i}`,
        currency: hold.currency,
        amount: posting.amount,
        kind: posting.kind,
        source: hold.source,
        reason: hold.reason,
      };
      if (hold.from === null) {
        // A promise: the value is created where it goes.
        if (posting.to !== null && !(await this.#keepPromise(hold, i, { ...move, account: posting.to }))) {
          return this.#hold(hold._id);
        }
      } else if (posting.to === null) {
        await this.deps.ledger.debit({ ...move, account: hold.account });
      } else {
        await this.deps.ledger.transfer({ ...move, from: hold.account, to: posting.to });
      }
    }
    return (
      (await this.#ended(
        await this.deps.store.move(hold._id, ['posting'], {
          state: 'posted',
          endedAt: this.deps.clock.now(),
        }),
      )) ?? this.#hold(hold._id)
    );
  }

  /**
   * Creates a promised value where it goes. An account closed for good (a member forgotten on
   * request, utils/privacy/) takes nothing any more: a promise to it whose first posting finds it
   * so is not kept, the hold ends `voided` (nothing was created) and the caller hears
   * ACCOUNT_CLOSED. A later posting finding it so stays an error for an operator.
   */
  async #keepPromise(hold: HoldDoc, posting: number, credit: CreditInput): Promise<boolean> {
    try {
      await this.deps.ledger.credit(credit);
      return true;
    } catch (error) {
      if (!isAppError(error, 'ACCOUNT_CLOSED') || posting > 0) throw error;
      await this.#ended(
        await this.deps.store.move(hold._id, ['posting'], {
          state: 'voided',
          endedAt: this.deps.clock.now(),
        }),
      );
      this.deps.log.warn(
        { event: 'holds.promise_to_closed_account', hold: hold._id },
        'a promise to a closed account was not kept',
      );
      throw error;
    }
  }

  async #finishVoid(hold: HoldDoc): Promise<HoldDoc> {
    if (hold.state !== 'voiding') return hold;
    if (hold.from !== null) {
      await this.deps.ledger.transfer({
        opId: `${HOLD_PREFIX}${hold._id}:void`,
        currency: hold.currency,
        from: hold.account,
        to: hold.from,
        amount: hold.amount,
        kind: hold.returnKind ?? hold.kind,
        source: hold.source,
        reason: hold.reason,
      });
    }
    return (
      (await this.#ended(
        await this.deps.store.move(hold._id, ['voiding'], {
          state: 'voided',
          endedAt: this.deps.clock.now(),
        }),
      )) ?? this.#hold(hold._id)
    );
  }

  /**
   * A hold this call just ended needs its timer no more: dropped, so the scheduler does not
   * claim, run and mark it for nothing. Best effort: a timer that stays (a failed delete, a
   * run already under way) finds the hold ended and does nothing.
   */
  async #ended(hold: HoldDoc | null): Promise<HoldDoc | null> {
    if (hold && ENDED.includes(hold.state)) {
      await this.deps.scheduler.cancel(`${EXPIRE_TASK}:${hold._id}`).catch(() => false);
    }
    return hold;
  }

  async #hold(id: string): Promise<HoldDoc> {
    const hold = await this.deps.store.get(id);
    if (!hold) throw new AppError('NOT_FOUND', `no hold ${id}`, { holdId: id });
    return hold;
  }
}
