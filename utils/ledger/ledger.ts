import { type Filter, MongoError } from 'mongodb';
import type { Clock } from '../../src/clock.js';
import type {
  Collections,
  LedgerEventDoc,
  LegSide,
  OperationSpec,
  PendingOp,
} from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import { AppError, isAppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { metrics } from '../../src/metrics.js';
import type { Rng } from '../../src/rng.js';
import { AccountGate } from './accountGate.js';
import {
  type BalanceDoc,
  type Book,
  type Books,
  createBooks,
  HOLD_PREFIX,
  POT_PREFIX,
  readBalance,
} from './books.js';
import { insufficientFunds } from './errors.js';
import { eventReader, eventWriter } from './eventBatches.js';
import {
  buildEvent,
  findOperationEvents,
  type LedgerOutcome,
  type Recorded,
  recordedFrom,
  toOutcomeLeg,
} from './events.js';
import {
  applyDebits,
  applyLeg,
  type Closing,
  closeAccount,
  legAccounts,
  reverseLeg,
  type Settled,
  settleLeg,
} from './legs.js';
import { MarkerSweeper } from './markerSweeper.js';
import {
  buildSpec,
  type CreditInput,
  creditInput,
  type DebitInput,
  debitInput,
  encodeSpec,
  fingerprint,
  parseInput,
  type TransferInput,
  transferInput,
} from './operationSpec.js';
import { type LedgerTimeouts, pause, RequestTimeoutError, within } from './patience.js';
import { LedgerQueries } from './queries.js';
import { settleAttempt } from './recovery.js';
import { recordStuck } from './stuck.js';
import { TurnBatcher } from './turnBatcher.js';

export { HOLD_PREFIX, POT_PREFIX } from './books.js';
export type { LedgerOutcome, OutcomeLeg } from './events.js';
export { balanceAfter } from './events.js';
export type { Closing } from './legs.js';
export type { KindTotal } from './queries.js';

/** Named points inside an operation, for fault injection (crash tests, failing credits). */
export const LEDGER_STEPS = [
  'debit.applied',
  'credit.before',
  'credit.applied',
  'events.written',
  'compensation.started',
] as const;

export type LedgerStep = (typeof LEDGER_STEPS)[number];

export interface LedgerHooks {
  step?(step: LedgerStep, spec: OperationSpec): void | Promise<void>;
}

export interface LedgerDeps {
  cols: Collections;
  clock: Clock;
  rng: Rng;
  log: Logger;
  config: { houseAccountId: string; houseMinReserve: number } & LedgerTimeouts;
  hooks?: LedgerHooks;
}

/** A debit waiting to be applied together with others on the same document. */
interface GroupedDebit {
  book: Book;
  account: string;
  spec: OperationSpec;
  marker: PendingOp;
}

/** One try at an operation: a fresh attempt id, and when it started (for its deadline). */
interface Attempt {
  spec: OperationSpec;
  att: string;
  startedAt: number;
}

interface AppliedLeg {
  book: Book;
  account: string;
  side: LegSide;
  /** Null when the reply was lost and the leg was found applied by settling it. */
  balanceAfter: number | null;
}

/** What became of one leg; every kind but `applied` means this attempt's leg is not applied. */
type LegResult =
  | { kind: 'applied'; leg: AppliedLeg }
  /** Another attempt already recorded the operation. */
  | { kind: 'recorded'; recorded: Recorded }
  /** Another attempt of the same id holds a marker on the account. */
  | { kind: 'busy' }
  /** The outcome was unknown and is now decided: not applied, and it never can be. */
  | { kind: 'fenced' }
  /** A definitive refusal (short balance, balance limit, reused id, no answer before any write). */
  | { kind: 'refused'; error: Error };

const MAX_RACE_RETRIES = 8;
/**
 * Operations of this process on one account at a time (accountGate.ts). Of 4/8/16/32/64,
 * 32 gave the best hot/raw once event reads and writes were batched (`npm run bench:ledger`).
 */
const PER_ACCOUNT_IN_FLIGHT = 32;
const AWAIT_OUTCOME_MS = 5_000;
/** Tries at settling, compensating or recording an attempt before it is left to recovery. */
const PERSISTENCE = 3;

/**
 * The only code that changes a balance. Each operation follows the marker pattern:
 * 1. one atomic, filter-guarded update per affected balance that also pushes a marker
 *    `{ op, att }` (filter `pendingOps.op $ne opId`, so the same id cannot apply twice
 *    while it is in flight, and `fences.att $ne att`, so a decided attempt never applies);
 * 2. one immutable audit event per changed balance, `_id = opId:leg` (unique, so a
 *    second attempt of a finished id is detected and undone);
 * 3. only then the markers are removed (batched), and the field is unset when empty.
 * A request whose reply is lost is never guessed at: the leg is settled by a fence
 * (legs.ts). A crash anywhere leaves markers that `recoverLedger` finishes. See ECONOMY.md.
 */
export class Ledger {
  /** What screens and reports read (queries.ts): tops, ranks, history, totals by kind. */
  readonly queries: LedgerQueries;
  readonly #books: Books;
  readonly #sweeper: MarkerSweeper;
  readonly #gate = new AccountGate(PER_ACCOUNT_IN_FLIGHT);
  /** Debits reaching one document in the same turn of the event loop go out as one update. */
  readonly #debits = new TurnBatcher<GroupedDebit, BalanceDoc | null>((items) => this.#serveDebits(items));
  /** Batched reads and writes of audit events (eventBatches.ts). */
  readonly #readEvents: (opId: string) => Promise<LedgerEventDoc[]>;
  readonly #writeEvents: (events: LedgerEventDoc[]) => Promise<void>;
  /** Attempts that ended with OPERATION_IN_PROGRESS, by operation id, until decided. */
  readonly #abandoned = new Map<string, Attempt[]>();

  constructor(private readonly deps: LedgerDeps) {
    this.#books = createBooks(deps.cols);
    this.queries = new LedgerQueries({ cols: deps.cols, houseAccountId: deps.config.houseAccountId });
    this.#sweeper = new MarkerSweeper(deps.log);
    this.#readEvents = eventReader((ids) =>
      this.#retry(() => deps.cols.ledgerEvents.find({ _id: { $in: ids } }).toArray()),
    );
    this.#writeEvents = eventWriter((docs) =>
      this.#io(() => deps.cols.ledgerEvents.insertMany(docs, { ordered: false })),
    );
  }

  /** Takes `amount` from `account`; fails with INSUFFICIENT_* when the balance is short. */
  async debit(input: DebitInput): Promise<LedgerOutcome> {
    const i = parseInput(debitInput, input);
    return this.#run(buildSpec('debit', { ...i, from: i.account, to: null }));
  }

  /** Adds `amount` to `account` (minting), creating the balance document when missing. */
  async credit(input: CreditInput): Promise<LedgerOutcome> {
    const i = parseInput(creditInput, input);
    return this.#run(buildSpec('credit', { ...i, from: null, to: i.account }));
  }

  /** Moves `amount` from one account to another of the same currency. */
  async transfer(input: TransferInput): Promise<LedgerOutcome> {
    const i = parseInput(transferInput, input);
    const reserve =
      i.currency === 'cookies' && i.from === this.houseAccountId ? this.deps.config.houseMinReserve : 0;
    return this.#run(buildSpec('transfer', { ...i, reserve }));
  }

  /** Pays Cookies out of the house vault, which keeps its configured minimum reserve. */
  async payFromHouse(input: Omit<TransferInput, 'from' | 'currency'>): Promise<LedgerOutcome> {
    return this.transfer({ ...input, currency: 'cookies', from: this.houseAccountId });
  }

  /** Moves Cookies into the house vault (game losses, penalties). */
  async payToHouse(input: Omit<TransferInput, 'to' | 'currency'>): Promise<LedgerOutcome> {
    return this.transfer({ ...input, currency: 'cookies', to: this.houseAccountId });
  }

  get houseAccountId(): string {
    return this.deps.config.houseAccountId;
  }

  /** Current balance (0 for an account that never held any). */
  async balanceOf(currency: OperationSpec['currency'], account: string): Promise<number> {
    const book = this.#books[currency];
    return readBalance(
      book,
      await book.collection.findOne({ _id: account }, { projection: { [book.balanceField]: 1 } }),
    );
  }

  /** Current balances of many accounts in one read (0 for an account that never held any). */
  async balancesOf(currency: OperationSpec['currency'], accounts: string[]): Promise<Map<string, number>> {
    const book = this.#books[currency];
    const docs = await book.collection
      .find({ _id: { $in: accounts } }, { projection: { [book.balanceField]: 1 } })
      .toArray();
    const found = new Map(docs.map((doc) => [doc._id, readBalance(book, doc)]));
    return new Map(accounts.map((account) => [account, found.get(account) ?? 0]));
  }

  /** True for the accounts that are not members: the house vault, the pots of tables and the holds. */
  isSystemAccount(account: string): boolean {
    return (
      account === this.houseAccountId || account.startsWith(POT_PREFIX) || account.startsWith(HOLD_PREFIX)
    );
  }

  /**
   * Closes an empty account with nothing in flight for good (legs.ts, `closeAccount`): a hold
   * whose reserve is decided "never arrived" closes its account, so the reserve's credit, however
   * late, can never land. Answers what it found when it could not close.
   */
  closeAccount(currency: OperationSpec['currency'], account: string): Promise<Closing> {
    return this.#retry(() => closeAccount(this.#books[currency], account));
  }

  /** Waits until every finished operation's markers are removed (shutdown, tests). */
  async flush(): Promise<void> {
    await this.#sweeper.drain();
  }

  /**
   * Decides every attempt this process gave up on (OPERATION_IN_PROGRESS) while the
   * database could not be asked; the recovery loop calls it. Returns how many it decided.
   */
  async settleAbandoned(): Promise<number> {
    let settled = 0;
    for (const opId of [...this.#abandoned.keys()]) {
      settled += await this.#settleAbandonedOf(opId).catch(() => 0);
    }
    return settled;
  }

  #run(spec: OperationSpec): Promise<LedgerOutcome> {
    const accounts = legAccounts(spec).map((leg) => `${spec.currency}:${leg.account}`);
    const labels = { type: spec.type, currency: spec.currency };
    return this.#gate
      .run(accounts, () => this.#runAdmitted(spec))
      .then(
        (outcome) => {
          metrics.ledgerOperations.inc({ ...labels, outcome: outcome.replayed ? 'replayed' : 'applied' });
          return outcome;
        },
        (error: unknown) => {
          metrics.ledgerOperations.inc({ ...labels, outcome: isAppError(error) ? 'refused' : 'failed' });
          throw error;
        },
      );
  }

  async #runAdmitted(spec: OperationSpec): Promise<LedgerOutcome> {
    await this.#settleAbandonedOf(spec.opId);
    for (let round = 0; round < 3; round++) {
      const attempt: Attempt = { spec, att: this.deps.rng.uuid(), startedAt: performance.now() };
      let result: LedgerOutcome | null;
      try {
        result =
          spec.type === 'transfer' ? await this.#runTransfer(attempt) : await this.#runSingleLeg(attempt);
      } catch (error) {
        if (isAppError(error, 'OPERATION_IN_PROGRESS')) this.#abandon(attempt);
        throw error;
      }
      if (result) return result;
    }
    throw inProgress(spec);
  }

  /**
   * An attempt that ended without a known outcome may still have a request on its way.
   * Before this process answers anything else for the same id, that attempt is frozen and
   * decided (recovery's `settleAttempt`), so a later "failed" can never be followed by a
   * late success of the earlier attempt.
   */
  async #settleAbandonedOf(opId: string): Promise<number> {
    const attempts = this.#abandoned.get(opId);
    if (!attempts) return 0;
    let settled = 0;
    for (const attempt of [...attempts]) {
      try {
        // Several requests, so a larger budget than one request's. Deciding is idempotent and
        // safe to run concurrently, so a try that failed or ran out of time is simply repeated.
        const budget = PERSISTENCE * this.deps.config.requestTimeoutMs;
        await this.#retry(() => settleAttempt(this.deps, attempt.spec, attempt.att), budget);
      } catch (error) {
        this.deps.log.warn(
          { event: 'ledger.abandoned.unsettled', opId, attempt: attempt.att, err: error },
          'an attempt this process gave up on cannot be decided yet',
        );
        throw inProgress(attempt.spec);
      }
      attempts.splice(attempts.indexOf(attempt), 1);
      settled++;
    }
    this.#abandoned.delete(opId);
    return settled;
  }

  #abandon(a: Attempt): void {
    const list = this.#abandoned.get(a.spec.opId) ?? [];
    list.push(a);
    this.#abandoned.set(a.spec.opId, list);
  }

  /** A debit (burn) or credit (mint): one balance, one event. */
  async #runSingleLeg(a: Attempt): Promise<LedgerOutcome | null> {
    const side: LegSide = a.spec.type === 'debit' ? 'debit' : 'credit';
    if (side === 'credit') {
      // A retried credit is answered from its events before anything moves (see ECONOMY.md).
      const recorded = await this.#recorded(a.spec).catch((error: unknown) => {
        // Nothing moved, but whether an earlier attempt recorded the id is unknown: "retry", not "failed".
        throw isDriverFailure(error) ? inProgress(a.spec) : error;
      });
      if (recorded) return sameOperation(a.spec, recorded).outcome;
      await this.#step('credit.before', a.spec);
    }
    const leg = await this.#apply(a, side);
    if (leg.kind !== 'applied') return this.#notApplied(a, leg, []);
    await this.#step(`${side}.applied`, a.spec);
    return this.#finish(a, [leg.leg]);
  }

  async #runTransfer(a: Attempt): Promise<LedgerOutcome | null> {
    const debit = await this.#apply(a, 'debit');
    if (debit.kind !== 'applied') return this.#notApplied(a, debit, []);
    const applied = [debit.leg];
    await this.#step('debit.applied', a.spec);

    let recorded: Recorded | null;
    try {
      // Our debit could only land once no earlier attempt held a marker on `from`, and an
      // attempt writes its events before it drops its markers: reading now sees them.
      recorded = await this.#recorded(a.spec);
      if (!recorded) {
        await this.#step('credit.before', a.spec);
        const { attemptDeadlineMs } = this.deps.config;
        if (performance.now() - a.startedAt > attemptDeadlineMs) {
          throw unavailable(a.spec, `the attempt passed its ${attemptDeadlineMs} ms deadline`);
        }
      }
    } catch (error) {
      // The credit was never sent, so it cannot land: return the debit. Whether an earlier
      // attempt recorded the id is unknown when the read failed: "retry", not "failed".
      await this.#compensate(a, applied);
      throw error instanceof AppError || !isDriverFailure(error) ? error : inProgress(a.spec);
    }
    if (recorded) return this.#settleDuplicate(a, applied, recorded);

    const credit = await this.#apply(a, 'credit');
    if (credit.kind !== 'applied') return this.#notApplied(a, credit, applied);
    await this.#step('credit.applied', a.spec);
    return this.#finish(a, [...applied, credit.leg]);
  }

  /**
   * Applies one leg. A request without a reply is settled (applied, or fenced so it can
   * never apply); a miss is explained from the stored state. Throws OPERATION_IN_PROGRESS
   * only when the database cannot even be asked: the markers then wait for recovery.
   */
  async #apply(a: Attempt, side: LegSide): Promise<LegResult> {
    const book = this.#books[a.spec.currency];
    const account = (side === 'debit' ? a.spec.from : a.spec.to) as string;
    const marker: PendingOp = {
      op: a.spec.opId,
      att: a.att,
      leg: side,
      at: this.deps.clock.now(),
      spec: encodeSpec(a.spec),
    };
    for (let i = 0; i < MAX_RACE_RETRIES; i++) {
      let doc: BalanceDoc | null;
      try {
        doc =
          side === 'debit'
            ? await this.#debits.call({ book, account, spec: a.spec, marker })
            : await this.#io(() => applyLeg(book, account, side, a.spec, marker));
      } catch (error) {
        this.deps.log.warn(
          { event: 'ledger.request.unanswered', opId: a.spec.opId, attempt: a.att, leg: side, err: error },
          'a balance update got no reply; settling it',
        );
        const settled = await this.#settle(a, book, account, side);
        return settled === 'applied'
          ? { kind: 'applied', leg: { book, account, side, balanceAfter: null } }
          : { kind: 'fenced' };
      }
      if (doc) return { kind: 'applied', leg: { book, account, side, balanceAfter: readBalance(book, doc) } };
      try {
        const explained = await this.#explainMiss(a, book, account, side);
        if (explained) return explained;
      } catch {
        // The leg did not apply, but why is unknown (the id may be recorded): "retry", not "failed".
        return { kind: 'refused', error: inProgress(a.spec) };
      }
    }
    return {
      kind: 'refused',
      error: unavailable(a.spec, `${side} of ${a.spec.opId} lost ${MAX_RACE_RETRIES} races in a row`),
    };
  }

  /**
   * Applies the debits asked for in one turn: those on one document (same book, account and
   * reserve, distinct operations) together with `applyDebits`, the others on their own. A
   * group that misses is retried one by one, so each debit gets exactly the answer it would
   * have had alone; a group whose reply is lost fails each of its debits, which then settle
   * their own leg. One member paying hundreds of times at once costs one update per group
   * instead of one per payment (`npm run bench:ledger`, hot/raw).
   */
  async #serveDebits(items: GroupedDebit[]): Promise<PromiseSettledResult<BalanceDoc | null>[]> {
    const results: PromiseSettledResult<BalanceDoc | null>[] = new Array(items.length);
    const alone = async (i: number) => {
      const { book, account, spec, marker } = items[i] as GroupedDebit;
      try {
        results[i] = {
          status: 'fulfilled',
          value: await this.#io(() => applyLeg(book, account, 'debit', spec, marker)),
        };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    };
    const groups = new Map<string, number[]>();
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const op = `${item.book.currency}:${item.spec.opId}`;
      const key = seen.has(op) ? `alone:${i}` : `${item.book.currency}:${item.account}:${item.spec.reserve}`;
      seen.add(op);
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    await Promise.all(
      [...groups.values()].map(async (indices) => {
        const first = items[indices[0] as number] as GroupedDebit;
        if (indices.length === 1) return alone(indices[0] as number);
        const debits = indices.map((i) => items[i] as GroupedDebit);
        let doc: BalanceDoc | null;
        try {
          doc = await this.#io(() => applyDebits(first.book, first.account, debits));
        } catch (reason) {
          for (const i of indices) results[i] = { status: 'rejected', reason };
          return;
        }
        if (!doc) {
          await Promise.all(indices.map(alone));
          return;
        }
        // In order: each debit's balance after it is the balance after all, plus what followed it.
        let after = readBalance(first.book, doc);
        for (const i of [...indices].reverse()) {
          results[i] = {
            status: 'fulfilled',
            value: { _id: first.account, [first.book.balanceField]: after },
          };
          after += (items[i] as GroupedDebit).spec.amount;
        }
      }),
    );
    return results;
  }

  /**
   * Why a definitive miss missed. The document is read before the events: an attempt
   * writes its events before it drops its marker, so if no marker is seen here, a finished
   * attempt's events are visible to the read that follows (no false INSUFFICIENT_*).
   */
  async #explainMiss(a: Attempt, book: Book, account: string, side: LegSide): Promise<LegResult | null> {
    const doc = await this.#retry(() =>
      book.collection.findOne(
        { _id: account },
        { projection: { [book.balanceField]: 1, 'pendingOps.op': 1, 'fences.att': 1, closed: 1 } },
      ),
    );
    if (doc?.fences?.some((f) => f.att === a.att)) return { kind: 'fenced' };
    if (doc?.pendingOps?.some((p) => p.op === a.spec.opId)) return { kind: 'busy' };
    if (side === 'credit' && doc?.closed) return { kind: 'refused', error: accountClosed(a.spec, account) };
    const recorded = await this.#recorded(a.spec);
    if (recorded) {
      return recorded.fingerprint === fingerprint(a.spec)
        ? { kind: 'recorded', recorded }
        : { kind: 'refused', error: reused(a.spec) };
    }
    const balance = readBalance(book, doc);
    if (side === 'debit' && balance < a.spec.amount + a.spec.reserve) {
      return { kind: 'refused', error: this.#insufficient(book, a.spec, account, balance) };
    }
    if (side === 'credit' && doc && balance > book.maxBalance - a.spec.amount) {
      return { kind: 'refused', error: balanceLimit(book, a.spec, account, balance) };
    }
    return null; // The balance moved between the update and the read; try again.
  }

  /** A leg of this attempt did not apply: undo what did, then answer or wait. */
  async #notApplied(
    a: Attempt,
    leg: Exclude<LegResult, { kind: 'applied' }>,
    applied: AppliedLeg[],
  ): Promise<LedgerOutcome | null> {
    switch (leg.kind) {
      case 'recorded':
        return this.#settleDuplicate(a, applied, leg.recorded);
      case 'busy':
        await this.#compensate(a, applied);
        return this.#awaitOutcome(a.spec);
      case 'refused':
        await this.#compensate(a, applied);
        throw leg.error;
      case 'fenced':
        return this.#afterFence(a, applied);
    }
  }

  /**
   * A leg of this attempt is fenced. Its marker was absent when the fence landed: it never
   * applied, or recovery finished or undid the attempt first, and recovery writes events
   * before it drops a marker. So the events, read now, tell which.
   */
  async #afterFence(a: Attempt, applied: AppliedLeg[]): Promise<LedgerOutcome> {
    const recorded = await this.#recorded(a.spec).catch(() => undefined);
    if (recorded === undefined) throw inProgress(a.spec);
    if (recorded?.attempt === a.att) {
      for (const leg of applied)
        this.#sweeper.enqueue(leg.book.collection, leg.account, { op: a.spec.opId, att: a.att });
      return { ...recorded.outcome, replayed: false };
    }
    if (recorded) return this.#settleDuplicate(a, applied, recorded);
    await this.#compensate(a, applied);
    throw unavailable(a.spec, 'the database did not confirm the change in time');
  }

  /** Settles a leg whose request got no reply; OPERATION_IN_PROGRESS when that is impossible now. */
  async #settle(a: Attempt, book: Book, account: string, side: LegSide): Promise<Settled> {
    try {
      return await this.#retry(() => settleLeg(book, account, a.spec.opId, a.att, this.deps.clock.now()));
    } catch (error) {
      this.deps.log.error(
        { event: 'ledger.settle.failed', opId: a.spec.opId, attempt: a.att, leg: side, err: error },
        'could not settle a leg whose reply was lost; the recovery pass will decide it',
      );
      throw inProgress(a.spec);
    }
  }

  /** Writes the audit events; a lost reply is followed by a read of what is stored. */
  async #finish(a: Attempt, legs: AppliedLeg[]): Promise<LedgerOutcome> {
    const at = this.deps.clock.now();
    const events = legs.map((leg) => buildEvent(a.spec, a.att, leg.side, leg.balanceAfter, at, false));
    for (let i = 0; i < PERSISTENCE; i++) {
      try {
        const stored =
          i === 0 ? [] : await this.#retry(() => findOperationEvents(this.deps.cols, a.spec.opId));
        const foreign = stored.find((e) => e.attempt !== a.att);
        if (foreign) return this.#settleDuplicate(a, legs, recordedFrom(stored) as Recorded);
        const missing = events.filter((e) => !stored.some((s) => s._id === e._id));
        // Batched with other operations' events (eventBatches.ts); a collision is read back above.
        if (missing.length > 0) await this.#writeEvents(missing);
        await this.#step('events.written', a.spec);
        for (const leg of legs) {
          this.#sweeper.enqueue(leg.book.collection, leg.account, { op: a.spec.opId, att: a.att });
        }
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
    this.deps.log.error(
      { event: 'ledger.events.write_failed', opId: a.spec.opId, attempt: a.att },
      'balance changed but its audit events could not be written; recovery will finish the operation',
    );
    throw inProgress(a.spec);
  }

  /**
   * This attempt applied legs of an id another attempt already recorded: undo them first,
   * then answer with the recorded outcome (or refuse a reused id).
   */
  async #settleDuplicate(a: Attempt, legs: AppliedLeg[], recorded: Recorded): Promise<LedgerOutcome> {
    for (const leg of legs) {
      const undone = await this.#reverse(a, leg).catch(async (error: unknown) => {
        await recordStuck(this.deps, a.spec, a.att, `duplicate could not be undone yet: ${String(error)}`);
        throw inProgress(a.spec);
      });
      if (undone) {
        this.#sweeper.enqueue(leg.book.collection, leg.account, null);
        continue;
      }
      const problem = `duplicate ${leg.side} on ${leg.account} could not be undone (balance already spent)`;
      this.deps.log.fatal(
        { event: 'ledger.duplicate.undo_failed', opId: a.spec.opId, attempt: a.att },
        problem,
      );
      await recordStuck(this.deps, a.spec, a.att, problem);
    }
    return sameOperation(a.spec, recorded).outcome;
  }

  /** Returns the legs of an attempt whose operation definitively did not happen. */
  async #compensate(a: Attempt, legs: AppliedLeg[]): Promise<void> {
    if (legs.length === 0) return;
    try {
      await this.#step('compensation.started', a.spec);
      for (const leg of legs) {
        if (!(await this.#reverse(a, leg)))
          throw new Error(`${leg.side} on ${leg.account} cannot be reversed`);
        this.#sweeper.enqueue(leg.book.collection, leg.account, null);
      }
      this.deps.log.warn(
        { event: 'ledger.transfer.compensated', opId: a.spec.opId, attempt: a.att },
        'the operation did not complete; its debit was returned to the source',
      );
    } catch (error) {
      this.deps.log.fatal(
        { event: 'ledger.compensation.failed', opId: a.spec.opId, attempt: a.att, err: error },
        'could not return the debit; recorded as stuck for the recovery pass',
      );
      await recordStuck(this.deps, a.spec, a.att, `compensation failed: ${String(error)}`);
      throw inProgress(a.spec);
    }
  }

  /** Reverses one leg (guarded by its marker, so repeating after a lost reply is safe). */
  #reverse(a: Attempt, leg: AppliedLeg): Promise<boolean> {
    return this.#retry(() => reverseLeg(leg.book, leg.account, leg.side, a.spec, a.att));
  }

  /** The recorded outcome of the id, if any. */
  /**
   * Whether operation `opId` is recorded (its events written): done, as a caller that lost
   * track of it needs to know. An attempt still in flight is not (yet); recovery decides it
   * within the recovery grace.
   */
  async recorded(opId: string): Promise<boolean> {
    return (await this.#retry(() => this.#readEvents(opId))).length > 0;
  }

  async #recorded(spec: OperationSpec): Promise<Recorded | null> {
    return recordedFrom(await this.#readEvents(spec.opId));
  }

  /**
   * A request that is safe to repeat (a read, a settle, a marker-guarded reversal, deciding
   * an attempt): after a database failure it is simply sent again, up to PERSISTENCE times.
   */
  async #retry<T>(request: () => Promise<T>, timeoutMs?: number): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await this.#io(request, timeoutMs);
      } catch (error) {
        if (i + 1 >= PERSISTENCE || !isDriverFailure(error)) throw error;
        await pause(20 * 2 ** i);
      }
    }
  }

  /** Another attempt of this id is in flight: wait for its outcome, or report "retry" if it vanished. */
  async #awaitOutcome(spec: OperationSpec): Promise<LedgerOutcome | null> {
    // Polling deadline: elapsed process time, not business time (the clock may be simulated).
    const started = performance.now();
    for (let wait = 2; performance.now() - started < AWAIT_OUTCOME_MS; wait = Math.min(wait * 2, 100)) {
      await pause(wait);
      try {
        const recorded = await this.#recorded(spec);
        if (recorded) return sameOperation(spec, recorded).outcome;
        if (!(await this.#retry(() => this.#markerPresent(spec)))) return null;
      } catch (error) {
        if (error instanceof AppError) throw error;
      }
    }
    throw inProgress(spec);
  }

  async #markerPresent(spec: OperationSpec): Promise<boolean> {
    const book = this.#books[spec.currency];
    const ids = [spec.from, spec.to].filter((id): id is string => id !== null);
    const found = await book.collection.findOne(
      { _id: { $in: ids }, 'pendingOps.op': spec.opId } as Filter<BalanceDoc>,
      { projection: { _id: 1 } },
    );
    return found !== null;
  }

  #insufficient(book: Book, spec: OperationSpec, account: string, balance: number): AppError {
    if (spec.reserve > 0) {
      return new AppError(
        'HOUSE_VAULT_INSUFFICIENT',
        `the house vault holds ${balance} and must keep ${spec.reserve}; it cannot pay ${spec.amount}`,
        {
          balance,
          reserve: spec.reserve,
          needed: spec.amount,
          available: Math.max(0, balance - spec.reserve),
        },
      );
    }
    return insufficientFunds(book.currency, account, balance, spec.amount);
  }

  /**
   * One database request of a money path, waited for at most `requestTimeoutMs`. A request
   * the driver never sent (pool cleared, no server selectable) is sent again; any other
   * failure leaves its outcome unknown and is the caller's to settle.
   */
  async #io<T>(request: () => Promise<T>, timeoutMs = this.deps.config.requestTimeoutMs): Promise<T> {
    const started = performance.now();
    for (let i = 0; ; i++) {
      try {
        return await within(timeoutMs, request());
      } catch (error) {
        // The driver clears its pool after a broken connection and rediscovers the server
        // within about half a second; requests queued meanwhile were never sent.
        if (!neverSent(error) || performance.now() - started > this.deps.config.requestTimeoutMs) throw error;
        await pause(Math.min(10 * 2 ** i, 100));
      }
    }
  }

  async #step(step: LedgerStep, spec: OperationSpec): Promise<void> {
    await this.deps.hooks?.step?.(step, spec);
  }
}

function sameOperation(spec: OperationSpec, recorded: Recorded): Recorded {
  if (recorded.fingerprint !== fingerprint(spec)) throw reused(spec);
  return recorded;
}

function reused(spec: OperationSpec): AppError {
  return new AppError(
    'OPERATION_ID_REUSED',
    `operation id ${spec.opId} was already used for a different operation`,
    {
      opId: spec.opId,
    },
  );
}

function inProgress(spec: OperationSpec): AppError {
  return new AppError(
    'OPERATION_IN_PROGRESS',
    `operation ${spec.opId} is still being applied; try again shortly`,
    {
      opId: spec.opId,
    },
  );
}

/** Nothing of the operation was applied, because the database could not be reached in time. */
function unavailable(spec: OperationSpec, cause: unknown): AppError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new AppError('LEDGER_UNAVAILABLE', `operation ${spec.opId} was not applied: ${why}`, {
    opId: spec.opId,
  });
}

/** A credit to an account a hold closed for good (utils/holds/): nothing moved. */
function accountClosed(spec: OperationSpec, account: string): AppError {
  return new AppError('ACCOUNT_CLOSED', `${account} is closed; ${spec.opId} cannot credit it`, {
    account,
    opId: spec.opId,
  });
}

function balanceLimit(book: Book, spec: OperationSpec, account: string, balance: number): AppError {
  return new AppError(
    'BALANCE_LIMIT',
    `${account} holds ${balance}; ${spec.amount} more would pass the limit of ${book.maxBalance}`,
    { account, balance, needed: spec.amount, max: book.maxBalance, currency: spec.currency },
  );
}

/** Failures that happen before a request leaves the driver: repeating the request is safe. */
function neverSent(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  return (
    name === 'MongoPoolClearedError' ||
    name === 'MongoServerSelectionError' ||
    name === 'MongoWaitQueueTimeoutError'
  );
}

/** An error of the database or of waiting for it (as opposed to a bug or a hook). */
function isDriverFailure(error: unknown): boolean {
  return error instanceof MongoError || error instanceof RequestTimeoutError;
}
