import type { Filter } from 'mongodb';
import { isDuplicateKey } from '../../../src/db/duplicateKey.js';
import { AppError } from '../../../src/errors.js';
import type { AppliedLeg, Attempt, AttemptContext, LegResult } from './attempt.js';
import type { BalanceDoc } from './books.js';
import type { OperationSpec } from './documents.js';
import { inProgress, sameOperation, unavailable } from './errors.js';
import {
  buildEvent,
  findOperationEvents,
  type LedgerOutcome,
  type Recorded,
  recordedFrom,
  toOutcomeLeg,
} from './events.js';
import { reverseLeg } from './legs.js';
import { isDriverFailure, PERSISTENCE, pause } from './patience.js';
import { recordStuck } from './stuck.js';

const AWAIT_OUTCOME_MS = 5_000;

/**
 * How an attempt ends once its legs are applied or one of them is not: its events written
 * (the operation is recorded), its legs undone (another attempt recorded the id, or the
 * operation definitively did not happen), or a wait for the attempt of the same id in flight.
 */
export class Outcomes {
  constructor(private readonly ctx: AttemptContext) {}

  /** A leg of this attempt did not apply: undo what did, then answer or wait. */
  async notApplied(
    a: Attempt,
    leg: Exclude<LegResult, { kind: 'applied' }>,
    applied: AppliedLeg[],
  ): Promise<LedgerOutcome | null> {
    switch (leg.kind) {
      case 'recorded':
        return this.undoDuplicate(a, applied, leg.recorded);
      case 'busy':
        await this.compensate(a, applied);
        return this.#awaitOutcome(a.spec);
      case 'refused':
        await this.compensate(a, applied);
        throw leg.error;
      case 'fenced':
        return this.#afterFence(a, applied);
    }
  }

  /** Writes the audit events; a lost reply is followed by a read of what is stored. */
  async finish(a: Attempt, legs: AppliedLeg[]): Promise<LedgerOutcome> {
    const at = this.ctx.deps.clock.now();
    const events = legs.map((leg) =>
      buildEvent(a.spec, a.att, leg.side, leg.balanceAfter, at, false, leg.sequence),
    );
    for (let i = 0; i < PERSISTENCE; i++) {
      try {
        const stored =
          i === 0
            ? []
            : await this.ctx.patience.retry(() => findOperationEvents(this.ctx.deps.cols, a.spec.opId));
        const foreign = stored.find((e) => e.attempt !== a.att);
        if (foreign) return this.undoDuplicate(a, legs, recordedFrom(stored) as Recorded);
        const missing = events.filter((e) => !stored.some((s) => s._id === e._id));
        // Batched with other operations' events (eventBatches.ts); a collision is read back above.
        if (missing.length > 0) await this.ctx.writeEvents(missing);
        await this.ctx.step('events.written', a.spec);
        this.#dropMarkers(a, legs);
        return {
          opId: a.spec.opId,
          type: a.spec.type,
          currency: a.spec.currency,
          amount: a.spec.amount,
          replayed: false,
          legs: events.map(toOutcomeLeg),
        };
      } catch (error) {
        if (!isDuplicateKey(error) && !isDriverFailure(error)) throw error;
        await pause(20 * 2 ** i);
      }
    }
    this.ctx.deps.log.error(
      { event: 'ledger.events.write_failed', opId: a.spec.opId, attempt: a.att },
      'balance changed but its audit events could not be written; recovery will finish the operation',
    );
    throw inProgress(a.spec);
  }

  /**
   * This attempt applied legs of an id another attempt already recorded: undo them first,
   * then answer with the recorded outcome (or refuse a reused id).
   */
  async undoDuplicate(a: Attempt, legs: AppliedLeg[], recorded: Recorded): Promise<LedgerOutcome> {
    for (const leg of legs) {
      const undone = await this.#reverse(a, leg).catch(async (error: unknown) => {
        await recordStuck(
          this.ctx.deps,
          a.spec,
          a.att,
          `duplicate could not be undone yet: ${String(error)}`,
        );
        throw inProgress(a.spec);
      });
      if (undone) {
        this.ctx.sweeper.enqueue(leg.book.collection, leg.account, null);
        continue;
      }
      const problem = `duplicate ${leg.side} on ${leg.account} could not be undone (balance already spent)`;
      this.ctx.deps.log.fatal(
        { event: 'ledger.duplicate.undo_failed', opId: a.spec.opId, attempt: a.att },
        problem,
      );
      await recordStuck(this.ctx.deps, a.spec, a.att, problem);
    }
    return sameOperation(a.spec, recorded).outcome;
  }

  /** Returns the legs of an attempt whose operation definitively did not happen. */
  async compensate(a: Attempt, legs: AppliedLeg[]): Promise<void> {
    if (legs.length === 0) return;
    try {
      await this.ctx.step('compensation.started', a.spec);
      for (const leg of legs) {
        if (!(await this.#reverse(a, leg)))
          throw new Error(`${leg.side} on ${leg.account} cannot be reversed`);
        this.ctx.sweeper.enqueue(leg.book.collection, leg.account, null);
      }
      this.ctx.deps.log.warn(
        { event: 'ledger.transfer.compensated', opId: a.spec.opId, attempt: a.att },
        'the operation did not complete; its debit was returned to the source',
      );
    } catch (error) {
      this.ctx.deps.log.fatal(
        { event: 'ledger.compensation.failed', opId: a.spec.opId, attempt: a.att, err: error },
        'could not return the debit; recorded as stuck for the recovery pass',
      );
      await recordStuck(this.ctx.deps, a.spec, a.att, `compensation failed: ${String(error)}`);
      throw inProgress(a.spec);
    }
  }

  /**
   * A leg of this attempt is fenced. Its marker was absent when the fence landed: it never
   * applied, or recovery finished or undid the attempt first, and recovery writes events
   * before it drops a marker. So the events, read now, tell which.
   */
  async #afterFence(a: Attempt, applied: AppliedLeg[]): Promise<LedgerOutcome> {
    const recorded = await this.ctx.recorded(a.spec).catch(() => undefined);
    if (recorded === undefined) throw inProgress(a.spec);
    if (recorded?.attempt === a.att) {
      this.#dropMarkers(a, applied);
      return { ...recorded.outcome, replayed: false };
    }
    if (recorded) return this.undoDuplicate(a, applied, recorded);
    await this.compensate(a, applied);
    throw unavailable(a.spec, 'the database did not confirm the change in time');
  }

  /** The operation is recorded: its markers go, batched (markerSweeper.ts). */
  #dropMarkers(a: Attempt, legs: AppliedLeg[]): void {
    for (const leg of legs) {
      this.ctx.sweeper.enqueue(leg.book.collection, leg.account, { op: a.spec.opId, att: a.att });
    }
  }

  /** Reverses one leg (guarded by its marker, so repeating after a lost reply is safe). */
  #reverse(a: Attempt, leg: AppliedLeg): Promise<boolean> {
    return this.ctx.patience.retry(() => reverseLeg(leg.book, leg.account, leg.side, a.spec, a.att));
  }

  /** Another attempt of this id is in flight: wait for its outcome, or report "retry" if it vanished. */
  async #awaitOutcome(spec: OperationSpec): Promise<LedgerOutcome | null> {
    // Polling deadline: elapsed process time, not business time (the clock may be simulated).
    const started = performance.now();
    for (let wait = 2; performance.now() - started < AWAIT_OUTCOME_MS; wait = Math.min(wait * 2, 100)) {
      await pause(wait);
      try {
        const recorded = await this.ctx.recorded(spec);
        if (recorded) return sameOperation(spec, recorded).outcome;
        if (!(await this.ctx.patience.retry(() => this.#markerPresent(spec)))) return null;
      } catch (error) {
        if (error instanceof AppError) throw error;
      }
    }
    throw inProgress(spec);
  }

  async #markerPresent(spec: OperationSpec): Promise<boolean> {
    const book = this.ctx.books[spec.currency];
    const ids = [spec.from, spec.to].filter((id): id is string => id !== null);
    const found = await book.collection.findOne(
      { _id: { $in: ids }, 'pendingOps.op': spec.opId } as Filter<BalanceDoc>,
      { projection: { _id: 1 } },
    );
    return found !== null;
  }
}
