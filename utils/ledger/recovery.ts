import type { Filter } from 'mongodb';
import type { Clock } from '../../src/clock.js';
import type { Collections, LegSide, OperationSpec } from '../../src/db/collections.js';
import type { Logger } from '../../src/logger.js';
import { asUpdate, type BalanceDoc, type Book, createBooks } from './books.js';
import { buildEvent, findOperationEvents, isDuplicateKey, recordStuck, reverseLeg } from './ledger.js';

export interface RecoveryDeps {
  cols: Collections;
  clock: Clock;
  log: Logger;
}

export interface RecoveryReport {
  /** Interrupted attempts found (one per operation id and attempt). */
  examined: number;
  /** Attempts completed forward: missing audit events written, markers removed. */
  rolledForward: number;
  /** Transfers whose credit never landed: the debit was returned. */
  rolledBack: number;
  /** Second attempts of an already finished id: their balance changes were undone. */
  duplicatesUndone: number;
  /** Attempts younger than the grace period, left to their (possibly live) process. */
  skippedRecent: number;
  /** Operation ids that still need an operator (also recorded in ledger_stuck_ops). */
  stuck: string[];
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

/**
 * Finishes every operation a crash (or a failed compensation) interrupted, using only
 * what is stored: the markers on balance documents, the audit events and the stuck-op
 * records. Safe to run at any time and from several processes: every step it takes is
 * guarded by a marker or a unique event id. Attempts younger than `graceMs` are skipped
 * unless recorded as stuck, because their process may still be finishing them.
 */
export async function recoverLedger(
  deps: RecoveryDeps,
  options: { graceMs: number },
): Promise<RecoveryReport> {
  const books = Object.values(createBooks(deps.cols));
  const report: RecoveryReport = {
    examined: 0,
    rolledForward: 0,
    rolledBack: 0,
    duplicatesUndone: 0,
    skippedRecent: 0,
    stuck: [],
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
    const outcome = await finishAttempt(deps, attempt);
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
    await book.collection.updateMany({ pendingOps: { $size: 0 } }, asUpdate({ $unset: { pendingOps: '' } }));
  }
  return report;
}

async function collectInterrupted(books: Book[]): Promise<Map<string, InterruptedAttempt>> {
  const attempts = new Map<string, InterruptedAttempt>();
  for (const book of books) {
    const cursor = book.collection.find({ 'pendingOps.0': { $exists: true } } as Filter<BalanceDoc>, {
      projection: { pendingOps: 1 },
    });
    for await (const doc of cursor) {
      for (const marker of doc.pendingOps ?? []) {
        const key = `${marker.op}#${marker.att}`;
        const entry = attempts.get(key) ?? { spec: marker.spec, att: marker.att, legs: [] };
        entry.legs.push({ book, account: doc._id, side: marker.leg, at: new Date(marker.at) });
        attempts.set(key, entry);
      }
    }
  }
  return attempts;
}

type AttemptOutcome = 'rolledForward' | 'rolledBack' | 'duplicatesUndone' | 'stuck';

async function finishAttempt(deps: RecoveryDeps, attempt: InterruptedAttempt): Promise<AttemptOutcome> {
  const { spec, att, legs } = attempt;
  const events = await findOperationEvents(deps.cols, spec.opId);
  const writtenBy = events[0]?.attempt;

  if (writtenBy !== undefined && writtenBy !== att) {
    // Another attempt of this id is the recorded one: this attempt's changes are duplicates.
    for (const leg of legs) {
      if (!(await reverseLeg(leg.book, leg.account, leg.side, spec, att))) {
        await recordStuck(deps, spec, att, `duplicate ${leg.side} on ${leg.account} cannot be undone yet`);
        return 'stuck';
      }
    }
    return 'duplicatesUndone';
  }

  const hasCredit = legs.some((l) => l.side === 'credit');
  if (writtenBy === undefined && spec.type === 'transfer' && !hasCredit) {
    // The money left the source but never arrived: return it.
    for (const leg of legs) await reverseLeg(leg.book, leg.account, leg.side, spec, att);
    return 'rolledBack';
  }

  // The balance changes happened: make sure each is explained by its event, then drop markers.
  const sides: LegSide[] =
    spec.type === 'transfer' ? ['debit', 'credit'] : [spec.type === 'debit' ? 'debit' : 'credit'];
  const missing = sides
    .filter((side) => !events.some((e) => e.leg === side))
    .map((side) => buildEvent(spec, att, side, null, deps.clock.now(), true));
  if (missing.length > 0) {
    try {
      await deps.cols.ledgerEvents.insertMany(missing, { ordered: false });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return finishAttempt(deps, attempt);
    }
  }
  for (const leg of legs) {
    await leg.book.collection.updateOne(
      { _id: leg.account },
      asUpdate({ $pull: { pendingOps: { op: spec.opId, att } } }),
    );
  }
  return 'rolledForward';
}
