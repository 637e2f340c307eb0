import { type Filter, MongoServerError } from 'mongodb';
import type { Clock } from '../../src/clock.js';
import type {
  Collections,
  LedgerEventDoc,
  LegSide,
  OperationSpec,
  PendingOp,
} from '../../src/db/collections.js';
import type { Logger } from '../../src/logger.js';
import type { Rng } from '../../src/rng.js';
import { AppError } from '../errors.js';
import {
  asUpdate,
  type BalanceDoc,
  type Book,
  type Books,
  createBooks,
  negate,
  readBalance,
} from './books.js';
import { MarkerSweeper } from './markerSweeper.js';
import {
  buildSpec,
  type CreditInput,
  creditInput,
  type DebitInput,
  debitInput,
  fingerprint,
  parseInput,
  type TransferInput,
  transferInput,
} from './operationSpec.js';

/** Named points inside an operation, for fault injection (crash tests, failing credits). */
export type LedgerStep =
  | 'debit.applied'
  | 'credit.before'
  | 'credit.applied'
  | 'events.written'
  | 'compensation.started';

export interface LedgerHooks {
  step?(step: LedgerStep, spec: OperationSpec): void | Promise<void>;
}

export interface LedgerDeps {
  cols: Collections;
  clock: Clock;
  rng: Rng;
  log: Logger;
  config: { houseAccountId: string; houseMinReserve: number };
  hooks?: LedgerHooks;
}

export interface OutcomeLeg {
  account: string;
  side: LegSide;
  delta: number;
  balanceAfter: number | null;
}

export interface LedgerOutcome {
  opId: string;
  type: OperationSpec['type'];
  currency: OperationSpec['currency'];
  amount: number;
  /** True when this call found the operation already applied and returned its first outcome. */
  replayed: boolean;
  legs: OutcomeLeg[];
}

interface AppliedLeg {
  book: Book;
  account: string;
  side: LegSide;
  balanceAfter: number;
}

type LegResult =
  | { kind: 'applied'; balanceAfter: number }
  | { kind: 'recorded'; outcome: LedgerOutcome }
  | { kind: 'busy' };

const MAX_RACE_RETRIES = 8;
const AWAIT_OUTCOME_MS = 5_000;

/**
 * The only code that changes a balance. Each operation follows the marker pattern:
 * 1. one atomic, filter-guarded update per affected balance that also pushes a marker
 *    `{ op, att }` (filter `pendingOps.op $ne opId`, so the same id cannot apply twice
 *    while it is in flight);
 * 2. one immutable audit event per changed balance, `_id = opId:leg` (unique, so a
 *    second attempt of a finished id is detected and undone);
 * 3. only then the markers are removed (batched), and the field is unset when empty.
 * A crash anywhere leaves markers that `recoverLedger` finishes. See ECONOMY.md.
 */
export class Ledger {
  readonly #books: Books;
  readonly #sweeper: MarkerSweeper;

  constructor(private readonly deps: LedgerDeps) {
    this.#books = createBooks(deps.cols);
    this.#sweeper = new MarkerSweeper(deps.log);
  }

  /** Takes `amount` from `account`; fails with INSUFFICIENT_* when the balance is short. */
  async debit(input: DebitInput): Promise<LedgerOutcome> {
    const i = parseInput(debitInput, input);
    const spec = buildSpec('debit', { ...i, from: i.account, to: null });
    return this.#run(spec);
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

  /** Waits until every finished operation's markers are removed (shutdown, tests). */
  async flush(): Promise<void> {
    await this.#sweeper.drain();
  }

  async #run(spec: OperationSpec): Promise<LedgerOutcome> {
    for (let round = 0; round < 3; round++) {
      const attempt = this.deps.rng.uuid();
      const result =
        spec.type === 'transfer'
          ? await this.#runTransfer(spec, attempt)
          : await this.#runSingleLeg(spec, attempt);
      if (result) return result;
    }
    throw new AppError(
      'OPERATION_IN_PROGRESS',
      `operation ${spec.opId} is still being applied; try again shortly`,
      {
        opId: spec.opId,
      },
    );
  }

  /** A debit (burn) or credit (mint): one balance, one event. */
  async #runSingleLeg(spec: OperationSpec, att: string): Promise<LedgerOutcome | null> {
    const side: LegSide = spec.type === 'debit' ? 'debit' : 'credit';
    const book = this.#books[spec.currency];
    const account = (side === 'debit' ? spec.from : spec.to) as string;
    if (side === 'credit') {
      // A retried credit is answered from its events before anything moves (see ECONOMY.md).
      const recorded = await this.#recordedOutcome(spec);
      if (recorded) return recorded;
      await this.#step('credit.before', spec);
    }
    const leg =
      side === 'debit'
        ? await this.#applyDebit(book, spec, att, account)
        : await this.#applyCredit(book, spec, att, account);
    if (leg.kind === 'recorded') return leg.outcome;
    if (leg.kind === 'busy') return this.#awaitOutcome(spec);
    await this.#step(`${side}.applied`, spec);
    return this.#finish(spec, att, [{ book, account, side, balanceAfter: leg.balanceAfter }]);
  }

  async #runTransfer(spec: OperationSpec, att: string): Promise<LedgerOutcome | null> {
    const book = this.#books[spec.currency];
    const from = spec.from as string;
    const to = spec.to as string;
    const debit = await this.#applyDebit(book, spec, att, from);
    if (debit.kind === 'recorded') return debit.outcome;
    if (debit.kind === 'busy') return this.#awaitOutcome(spec);
    const debitLeg: AppliedLeg = { book, account: from, side: 'debit', balanceAfter: debit.balanceAfter };
    await this.#step('debit.applied', spec);

    // Our debit could only land once no earlier attempt held a marker on `from`, and an
    // attempt writes its events before it drops its markers: reading now sees them.
    const recorded = await this.#recorded(spec);
    if (recorded) return this.#settleDuplicate(spec, att, [debitLeg], recorded);

    let credit: LegResult;
    try {
      await this.#step('credit.before', spec);
      credit = await this.#applyCredit(book, spec, att, to);
    } catch (error) {
      await this.#compensate(spec, att, debitLeg, error);
      throw error;
    }
    if (credit.kind !== 'applied') {
      await this.#compensate(spec, att, debitLeg, new Error('credit leg blocked by another attempt'));
      return credit.kind === 'recorded' ? credit.outcome : this.#awaitOutcome(spec);
    }
    await this.#step('credit.applied', spec);
    return this.#finish(spec, att, [
      debitLeg,
      { book, account: to, side: 'credit', balanceAfter: credit.balanceAfter },
    ]);
  }

  #marker(spec: OperationSpec, att: string, leg: LegSide): PendingOp {
    return { op: spec.opId, att, leg, at: this.deps.clock.now(), spec };
  }

  async #applyDebit(book: Book, spec: OperationSpec, att: string, account: string): Promise<LegResult> {
    const needed = spec.amount + spec.reserve;
    for (let i = 0; i < MAX_RACE_RETRIES; i++) {
      const doc = await book.collection.findOneAndUpdate(
        {
          _id: account,
          [book.balanceField]: { $gte: needed },
          'pendingOps.op': { $ne: spec.opId },
        } as Filter<BalanceDoc>,
        asUpdate({ $inc: book.debitInc(spec), $push: { pendingOps: this.#marker(spec, att, 'debit') } }),
        { returnDocument: 'after', projection: { [book.balanceField]: 1 } },
      );
      if (doc) return { kind: 'applied', balanceAfter: readBalance(book, doc) };

      const recorded = await this.#recordedOutcome(spec);
      if (recorded) return { kind: 'recorded', outcome: recorded };
      const current = await book.collection.findOne(
        { _id: account },
        { projection: { [book.balanceField]: 1, pendingOps: 1 } },
      );
      if (current?.pendingOps?.some((p) => p.op === spec.opId)) return { kind: 'busy' };
      const balance = readBalance(book, current);
      if (balance < needed) throw this.#insufficient(book, spec, account, balance);
      // The balance moved between the update and the read; try again.
    }
    throw new Error(`debit of ${spec.opId} lost ${MAX_RACE_RETRIES} races in a row`);
  }

  async #applyCredit(book: Book, spec: OperationSpec, att: string, account: string): Promise<LegResult> {
    for (let i = 0; i < MAX_RACE_RETRIES; i++) {
      try {
        const doc = await book.collection.findOneAndUpdate(
          { _id: account, 'pendingOps.op': { $ne: spec.opId } } as Filter<BalanceDoc>,
          asUpdate({
            $inc: book.creditInc(spec),
            $push: { pendingOps: this.#marker(spec, att, 'credit') },
            ...(Object.keys(book.creditSetOnInsert).length > 0
              ? { $setOnInsert: book.creditSetOnInsert }
              : {}),
          }),
          { upsert: true, returnDocument: 'after', projection: { [book.balanceField]: 1 } },
        );
        if (doc) return { kind: 'applied', balanceAfter: readBalance(book, doc) };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      // Duplicate key on upsert: a concurrent first credit created the document (retry),
      // or the document carries this operation's marker (another attempt is in flight).
      const current = await book.collection.findOne({ _id: account }, { projection: { pendingOps: 1 } });
      if (current?.pendingOps?.some((p) => p.op === spec.opId)) return { kind: 'busy' };
    }
    throw new Error(`credit of ${spec.opId} lost ${MAX_RACE_RETRIES} races in a row`);
  }

  async #finish(spec: OperationSpec, att: string, legs: AppliedLeg[]): Promise<LedgerOutcome> {
    const at = this.deps.clock.now();
    const events = legs.map((leg) => buildEvent(spec, att, leg.side, leg.balanceAfter, at, false));
    try {
      await this.deps.cols.ledgerEvents.insertMany(events, { ordered: true });
    } catch (error) {
      const recorded = isDuplicateKey(error) ? await this.#recorded(spec) : null;
      // The recovery pass may have finished this very attempt already: nothing to undo then.
      if (recorded?.attempt === att) return recorded.outcome;
      if (recorded) return this.#settleDuplicate(spec, att, legs, recorded);
      this.deps.log.error(
        { event: 'ledger.events.write_failed', opId: spec.opId, attempt: att, err: error },
        'balance changed but its audit event could not be written; recovery will finish the operation',
      );
      throw error;
    }
    await this.#step('events.written', spec);
    for (const leg of legs) this.#sweeper.enqueue(leg.book.collection, leg.account, { op: spec.opId, att });
    return {
      opId: spec.opId,
      type: spec.type,
      currency: spec.currency,
      amount: spec.amount,
      replayed: false,
      legs: events.map(toOutcomeLeg),
    };
  }

  /**
   * This attempt applied legs of an id another attempt already recorded: undo them first,
   * then answer with the recorded outcome (or refuse a reused id).
   */
  async #settleDuplicate(
    spec: OperationSpec,
    att: string,
    legs: AppliedLeg[],
    recorded: { outcome: LedgerOutcome; fingerprint: string },
  ): Promise<LedgerOutcome> {
    await this.#undoDuplicate(spec, att, legs);
    assertSameOperation(spec, recorded.fingerprint);
    return recorded.outcome;
  }

  /** Undoes the legs this attempt applied for an operation that another attempt already finished. */
  async #undoDuplicate(spec: OperationSpec, att: string, legs: AppliedLeg[]): Promise<void> {
    for (const leg of legs) {
      const undone = await reverseLeg(leg.book, leg.account, leg.side, spec, att);
      if (undone) {
        this.#sweeper.enqueue(leg.book.collection, leg.account, null);
        continue;
      }
      const problem = `duplicate ${leg.side} on ${leg.account} could not be undone (balance already spent)`;
      this.deps.log.fatal({ event: 'ledger.duplicate.undo_failed', opId: spec.opId, attempt: att }, problem);
      await recordStuck(this.deps, spec, att, problem);
    }
  }

  async #compensate(spec: OperationSpec, att: string, debitLeg: AppliedLeg, cause: unknown): Promise<void> {
    try {
      await this.#step('compensation.started', spec);
      await reverseLeg(debitLeg.book, debitLeg.account, 'debit', spec, att);
      this.#sweeper.enqueue(debitLeg.book.collection, debitLeg.account, null);
      this.deps.log.warn(
        { event: 'ledger.transfer.compensated', opId: spec.opId, attempt: att, err: cause },
        'credit failed; the debit was returned to the source',
      );
    } catch (error) {
      this.deps.log.fatal(
        { event: 'ledger.compensation.failed', opId: spec.opId, attempt: att, err: error, cause },
        'credit failed AND the source could not be compensated; recorded as stuck for recovery',
      );
      await recordStuck(this.deps, spec, att, `compensation failed: ${String(error)}`);
    }
  }

  /** The first outcome of this operation id, if one was recorded (refuses a reused id). */
  async #recordedOutcome(spec: OperationSpec): Promise<LedgerOutcome | null> {
    const recorded = await this.#recorded(spec);
    if (!recorded) return null;
    assertSameOperation(spec, recorded.fingerprint);
    return recorded.outcome;
  }

  async #recorded(
    spec: OperationSpec,
  ): Promise<{ outcome: LedgerOutcome; fingerprint: string; attempt: string } | null> {
    const events = await findOperationEvents(this.deps.cols, spec.opId);
    const first = events[0];
    if (!first) return null;
    return { outcome: outcomeFromEvents(events), fingerprint: first.fingerprint, attempt: first.attempt };
  }

  /** Another attempt of this id is in flight: wait for its outcome, or report "retry" if it vanished. */
  async #awaitOutcome(spec: OperationSpec): Promise<LedgerOutcome | null> {
    // Polling deadline: elapsed process time, not business time (the clock may be simulated).
    const started = performance.now();
    for (let wait = 2; performance.now() - started < AWAIT_OUTCOME_MS; wait = Math.min(wait * 2, 100)) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      const recorded = await this.#recordedOutcome(spec);
      if (recorded) return recorded;
      if (!(await this.#markerPresent(spec))) return null;
    }
    throw new AppError(
      'OPERATION_IN_PROGRESS',
      `operation ${spec.opId} is still being applied; try again shortly`,
      {
        opId: spec.opId,
      },
    );
  }

  async #markerPresent(spec: OperationSpec): Promise<boolean> {
    const book = this.#books[spec.currency];
    const ids = [spec.from, spec.to].filter((id): id is string => id !== null);
    const found = await book.collection.findOne(
      { _id: { $in: ids }, 'pendingOps.op': spec.opId } as Filter<BalanceDoc>,
      {
        projection: { _id: 1 },
      },
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
    return new AppError(book.insufficientCode, `${account} has ${balance}, needs ${spec.amount}`, {
      account,
      balance,
      needed: spec.amount,
      currency: spec.currency,
    });
  }

  async #step(step: LedgerStep, spec: OperationSpec): Promise<void> {
    await this.deps.hooks?.step?.(step, spec);
  }
}

export function buildEvent(
  spec: OperationSpec,
  att: string,
  side: LegSide,
  balanceAfter: number | null,
  at: Date,
  recovered: boolean,
): LedgerEventDoc {
  const account = (side === 'debit' ? spec.from : spec.to) as string;
  const counterparty = side === 'debit' ? spec.to : spec.from;
  return {
    _id: `${spec.opId}:${side}`,
    opId: spec.opId,
    attempt: att,
    fingerprint: fingerprint(spec),
    type: spec.type,
    leg: side,
    currency: spec.currency,
    kind: spec.kind,
    account,
    counterparty,
    delta: side === 'debit' ? -spec.amount : spec.amount,
    amount: spec.amount,
    placements: side === 'debit' ? spec.placements : 0,
    balanceAfter,
    source: spec.source,
    beneficiary: spec.to ?? spec.from ?? account,
    reason: spec.reason,
    at,
    recovered,
  };
}

/**
 * Reverses one leg an attempt applied, guarded by that attempt's marker (so it happens at
 * most once) and, for a credit, by the balance (never below zero). Returns false when the
 * balance no longer allows it; true when reversed or when the marker was already gone.
 */
export async function reverseLeg(
  book: Book,
  account: string,
  side: LegSide,
  spec: OperationSpec,
  att: string,
): Promise<boolean> {
  const inc = side === 'debit' ? negate(book.debitInc(spec)) : negate(book.creditInc(spec));
  const filter: Record<string, unknown> = {
    _id: account,
    pendingOps: { $elemMatch: { op: spec.opId, att } },
  };
  if (side === 'credit') filter[book.balanceField] = { $gte: spec.amount };
  const result = await book.collection.updateOne(
    filter as Filter<BalanceDoc>,
    asUpdate({ $inc: inc, $pull: { pendingOps: { op: spec.opId, att } } }),
  );
  if (result.modifiedCount === 1) return true;
  const stillMarked = await book.collection.findOne(
    { _id: account, pendingOps: { $elemMatch: { op: spec.opId, att } } } as Filter<BalanceDoc>,
    { projection: { _id: 1 } },
  );
  return stillMarked === null;
}

export async function recordStuck(
  deps: Pick<LedgerDeps, 'cols' | 'clock' | 'log'>,
  spec: OperationSpec,
  att: string,
  problem: string,
): Promise<void> {
  try {
    await deps.cols.ledgerStuckOps.updateOne(
      { _id: `${spec.opId}#${att}` },
      {
        $setOnInsert: { opId: spec.opId, attempt: att, spec, at: deps.clock.now() },
        $set: { problem, resolvedAt: null, resolution: null },
      },
      { upsert: true },
    );
  } catch (error) {
    deps.log.fatal(
      { event: 'ledger.stuck.record_failed', opId: spec.opId, attempt: att, err: error, problem },
      'could not record a stuck operation; its marker remains for the recovery pass',
    );
  }
}

/** The events of one operation, looked up by their `_id`s (the fastest index on every server). */
export function findOperationEvents(cols: Collections, opId: string): Promise<LedgerEventDoc[]> {
  return cols.ledgerEvents.find({ _id: { $in: [`${opId}:debit`, `${opId}:credit`] } }).toArray();
}

export function outcomeFromEvents(events: LedgerEventDoc[]): LedgerOutcome {
  const first = events[0] as LedgerEventDoc;
  const ordered = [...events].sort((a, b) => (a.leg === b.leg ? 0 : a.leg === 'debit' ? -1 : 1));
  return {
    opId: first.opId,
    type: first.type,
    currency: first.currency,
    amount: first.amount,
    replayed: true,
    legs: ordered.map(toOutcomeLeg),
  };
}

function toOutcomeLeg(event: LedgerEventDoc): OutcomeLeg {
  return { account: event.account, side: event.leg, delta: event.delta, balanceAfter: event.balanceAfter };
}

function assertSameOperation(spec: OperationSpec, recordedFingerprint: string): void {
  if (recordedFingerprint !== fingerprint(spec)) {
    throw new AppError(
      'OPERATION_ID_REUSED',
      `operation id ${spec.opId} was already used for a different operation`,
      { opId: spec.opId },
    );
  }
}

export function isDuplicateKey(error: unknown): boolean {
  if (error instanceof MongoServerError && error.code === 11000) return true;
  const writeErrors = (error as { writeErrors?: { code?: number }[] } | null)?.writeErrors;
  return Array.isArray(writeErrors) && writeErrors.some((e) => e.code === 11000);
}

/** Balance of `account` after the operation, from its outcome (null when recovery wrote it). */
export function balanceAfter(outcome: LedgerOutcome, account: string): number | null {
  return outcome.legs.find((leg) => leg.account === account)?.balanceAfter ?? null;
}
