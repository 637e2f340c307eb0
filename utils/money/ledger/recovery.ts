import type { Filter } from 'mongodb';
import type { Clock } from '../../../src/clock.js';
import type { Collections } from '../../../src/db/collections.js';
import { isDuplicateKey } from '../../../src/db/duplicateKey.js';
import type { Logger } from '../../../src/logger.js';
import { asUpdate, type BalanceDoc, type Book, createBooks } from './books.js';
import type { LedgerEventDoc, LegSide, OperationSpec } from './documents.js';
import { buildEvent, findOperationEvents } from './events.js';
import { decideLeg, dropMarker, legAccounts, reverseLeg } from './legs.js';
import { decodeSpec } from './operationSpec.js';
import { recordStuck } from './stuck.js';

export interface RecoveryDeps {
  cols: Collections;
  clock: Clock;
  log: Logger;
}

export interface RecoveryOptions {
  /** Attempts younger than this are left to their process (unless recorded as stuck). */
  graceMs: number;
  /** Fences older than this are removed; no request of theirs can still be on its way. */
  fenceRetentionMs?: number;
  /**
   * Also unset the emptied marker and fence arrays a crash left between a `$pull` and its
   * `$unset` (default true; every `$pull` is followed by one). It reads every balance document (no index finds an empty
   * array), which grow with history, so the periodic pass does it once an
   * hour; the pass at start-up and `npm run ledger:recover` always do.
   */
  tidy?: boolean;
}

export interface RecoveryReport {
  /** Interrupted attempts found (one per operation id and attempt). */
  examined: number;
  /** Attempts completed forward: missing audit events written, markers removed. */
  rolledForward: number;
  /** Transfers whose credit never landed: the credit was fenced and the debit returned. */
  rolledBack: number;
  /** Second attempts of an already finished id: their balance changes were undone. */
  duplicatesUndone: number;
  /** Attempts younger than the grace period, left to their (possibly live) process. */
  skippedRecent: number;
  /** Operation ids that still need an operator (also recorded in ledger_stuck_ops). */
  stuck: string[];
  /** Operation ids this pass could not finish because the database failed it; the next pass retries. */
  failed: string[];
  /** Fences past their retention, removed. */
  fencesPruned: number;
}

interface MarkedLeg {
  book: Book;
  account: string;
  side: LegSide;
  at: Date;
}

interface InterruptedAttempt {
  spec: OperationSpec;
  att: string;
  legs: MarkedLeg[];
}

export type AttemptOutcome = 'rolledForward' | 'rolledBack' | 'duplicatesUndone' | 'stuck';

/**
 * Finishes every operation that a crash, a lost reply or a stall interrupted, from what is
 * stored: the markers on balance documents, the audit events and the stuck-op records.
 * Safe at any time and from several processes at once: an attempt is first frozen (every
 * leg without a marker is fenced, so it can never land later), then decided from its
 * legs and events; every write is guarded by a marker, a fence or a unique event id.
 * The grace period only spares live attempts the work of being fenced; correctness does
 * not depend on it. One failing attempt is logged, recorded and passed over.
 */
export async function recoverLedger(deps: RecoveryDeps, options: RecoveryOptions): Promise<RecoveryReport> {
  const books = Object.values(createBooks(deps.cols));
  const report: RecoveryReport = {
    examined: 0,
    rolledForward: 0,
    rolledBack: 0,
    duplicatesUndone: 0,
    skippedRecent: 0,
    stuck: [],
    failed: [],
    fencesPruned: 0,
  };
  const attempts = await collectInterrupted(books);
  const openStuck = await deps.cols.ledgerStuckOps.find({ resolvedAt: null }).toArray();
  const stuckKeys = new Set(openStuck.map((s) => `${s.opId}#${s.attempt}`));
  const cutoff = deps.clock.now().getTime() - options.graceMs;

  for (const [key, attempt] of attempts) {
    report.examined++;
    const newest = Math.max(...attempt.legs.map((l) => l.at.getTime()));
    if (newest > cutoff && !stuckKeys.has(key)) {
      report.skippedRecent++;
      continue;
    }
    try {
      const outcome = await finishAttempt(deps, books, attempt);
      if (outcome === 'stuck') {
        report.stuck.push(attempt.spec.opId);
        continue;
      }
      report[outcome]++;
      await deps.cols.ledgerStuckOps.updateMany(
        { opId: attempt.spec.opId, attempt: attempt.att, resolvedAt: null },
        { $set: { resolvedAt: deps.clock.now(), resolution: outcome } },
      );
      deps.log.warn(
        { event: 'ledger.recovery.finished', opId: attempt.spec.opId, attempt: attempt.att, outcome },
        'recovery finished an interrupted operation',
      );
    } catch (error) {
      report.failed.push(attempt.spec.opId);
      deps.log.error(
        {
          event: 'ledger.recovery.attempt_failed',
          opId: attempt.spec.opId,
          attempt: attempt.att,
          err: error,
        },
        'recovery could not finish an operation this pass; it moves on and retries next pass',
      );
      await recordStuck(deps, attempt.spec, attempt.att, `recovery failed: ${String(error)}`);
    }
  }

  // Stuck records whose markers are all gone were settled some other way.
  for (const stuck of openStuck) {
    if (!attempts.has(`${stuck.opId}#${stuck.attempt}`)) {
      await deps.cols.ledgerStuckOps.updateOne(
        { _id: stuck._id, resolvedAt: null },
        { $set: { resolvedAt: deps.clock.now(), resolution: 'no marker left' } },
      );
    }
  }
  for (const book of books) {
    if (options.tidy ?? true) {
      await book.collection.updateMany(
        { pendingOps: { $size: 0 } },
        asUpdate({ $unset: { pendingOps: '' } }),
      );
      await book.collection.updateMany({ fences: { $size: 0 } }, asUpdate({ $unset: { fences: '' } }));
    }
    if (options.fenceRetentionMs !== undefined) {
      const before = new Date(deps.clock.now().getTime() - options.fenceRetentionMs);
      report.fencesPruned += await pruneFences(book, before);
    }
  }
  return report;
}

async function collectInterrupted(books: Book[]): Promise<Map<string, InterruptedAttempt>> {
  const attempts = new Map<string, InterruptedAttempt>();
  for (const book of books) {
    const cursor = book.collection.find({ 'pendingOps.op': { $exists: true } } as Filter<BalanceDoc>, {
      projection: { pendingOps: 1 },
    });
    for await (const doc of cursor) {
      for (const marker of doc.pendingOps ?? []) {
        const key = `${marker.op}#${marker.att}`;
        const entry = attempts.get(key) ?? { spec: decodeSpec(marker.spec), att: marker.att, legs: [] };
        entry.legs.push({ book, account: doc._id, side: marker.leg, at: new Date(marker.at) });
        attempts.set(key, entry);
      }
    }
  }
  return attempts;
}

/**
 * Decides one attempt of an operation, whatever is known of it (used by a ledger for the
 * attempts it gave up on, before it tries the same id again).
 */
export function decideAttempt(deps: RecoveryDeps, spec: OperationSpec, att: string): Promise<AttemptOutcome> {
  return finishAttempt(deps, Object.values(createBooks(deps.cols)), { spec, att, legs: [] });
}

/**
 * Freezes an attempt, then decides it:
 * - events of another attempt: this one is a duplicate, undo what it applied;
 * - events of this attempt, or every leg applied: roll forward (write missing events);
 * - a transfer whose credit is fenced: roll back (return the debit).
 */
async function finishAttempt(
  deps: RecoveryDeps,
  books: Book[],
  attempt: InterruptedAttempt,
): Promise<AttemptOutcome> {
  const { spec, att } = attempt;
  const book = books.find((b) => b.currency === spec.currency) as Book;
  const legs = legAccounts(spec);
  // An attempt writes its events only once every leg applied: nothing of it is still on
  // its way, so there is nothing to freeze (most markers recovery meets are only unswept).
  const early = await findOperationEvents(deps.cols, spec.opId);
  if (early.some((e) => e.attempt === att)) return rollForward(deps, books, book, attempt, legs, early);

  const applied = new Set<LegSide>();
  for (const { side, account } of legs) {
    const marked = attempt.legs.some((l) => l.side === side);
    if (marked || (await decideLeg(book, account, spec.opId, att, deps.clock.now())) === 'applied') {
      applied.add(side);
    }
  }
  const appliedLegs = legs.filter((leg) => applied.has(leg.side));

  const events = await findOperationEvents(deps.cols, spec.opId);
  const writtenBy = events[0]?.attempt;
  if (writtenBy !== undefined && writtenBy !== att) {
    for (const leg of appliedLegs) {
      if (!(await reverseLeg(book, leg.account, leg.side, spec, att))) {
        await recordStuck(deps, spec, att, `duplicate ${leg.side} on ${leg.account} cannot be undone yet`);
        return 'stuck';
      }
    }
    return 'duplicatesUndone';
  }
  if (writtenBy === undefined && appliedLegs.length < legs.length) {
    // Part of a transfer landed and the rest never can: undo the part (a debit, guarded by its marker).
    for (const leg of appliedLegs) await reverseLeg(book, leg.account, leg.side, spec, att);
    return 'rolledBack';
  }
  return rollForward(deps, books, book, attempt, legs, events);
}

/** Every leg of the attempt applied: write the events that are missing, then drop its markers. */
async function rollForward(
  deps: RecoveryDeps,
  books: Book[],
  book: Book,
  attempt: InterruptedAttempt,
  legs: { side: LegSide; account: string }[],
  events: LedgerEventDoc[],
): Promise<AttemptOutcome> {
  const { spec, att } = attempt;
  const missing = legs
    .filter((leg) => !events.some((e) => e.leg === leg.side))
    .map((leg) => buildEvent(spec, att, leg.side, null, deps.clock.now(), true));
  if (missing.length > 0) {
    try {
      await deps.cols.ledgerEvents.insertMany(missing, { ordered: false });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return finishAttempt(deps, books, attempt);
    }
  }
  for (const leg of legs) await dropMarker(book, leg.account, spec.opId, att);
  return 'rolledForward';
}

/**
 * Removes fences recorded before `before` (read through the sparse `fences.at` index) and
 * unsets each array it emptied; returns how many went.
 */
async function pruneFences(book: Book, before: Date): Promise<number> {
  let pruned = 0;
  const cursor = book.collection.find({ 'fences.at': { $lt: before } } as Filter<BalanceDoc>, {
    projection: { fences: 1 },
  });
  for await (const doc of cursor) {
    const old = (doc.fences ?? []).filter((f) => new Date(f.at) < before).map((f) => f.att);
    const result = await book.collection.updateOne(
      { _id: doc._id },
      asUpdate({ $pull: { fences: { att: { $in: old } } } }),
    );
    if (result.modifiedCount === 1) pruned += old.length;
    await book.collection.updateOne(
      { _id: doc._id, fences: { $size: 0 } },
      asUpdate({ $unset: { fences: '' } }),
    );
  }
  return pruned;
}
