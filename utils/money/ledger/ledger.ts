import type { Filter } from 'mongodb';
import { inChunks } from '../../../src/db/inChunks.js';
import { AppError, isAppError } from '../../../src/errors.js';
import { metrics } from '../../../src/metrics.js';
import { AbandonedAttempts } from './abandoned.js';
import { AccountGate } from './accountGate.js';
import type { Attempt, AttemptContext, LedgerDeps, LedgerStep } from './attempt.js';
import { type BalanceDoc, type Books, createBooks, HOLD_PREFIX, POT_PREFIX, readBalance } from './books.js';
import type { LedgerEventDoc, LegSide, OperationSpec } from './documents.js';
import { inProgress, sameOperation, unavailable } from './errors.js';
import { eventReader, eventWriter } from './eventBatches.js';
import { balanceAfter, type LedgerOutcome, type Recorded, recordedFrom } from './events.js';
import { type Closing, closeAccount, legAccounts } from './legs.js';
import { LegWriter } from './legWriter.js';
import { MarkerSweeper } from './markerSweeper.js';
import {
  buildSpec,
  type CreditInput,
  creditInput,
  type DebitInput,
  debitInput,
  parseInput,
  type TransferInput,
  transferInput,
} from './operationSpec.js';
import { Outcomes } from './outcomes.js';
import { isDriverFailure, Patience } from './patience.js';
import { LedgerQueries } from './queries.js';

declare module '../../../src/deps.js' {
  interface MoneyLayer {
    /** The only writer of balances. */
    ledger: Ledger;
  }
}

export type { LedgerDeps, LedgerHooks, LedgerStep } from './attempt.js';
export { LEDGER_STEPS } from './attempt.js';
export { HOLD_PREFIX, POT_PREFIX } from './books.js';
export type { LedgerOutcome, OutcomeLeg } from './events.js';
export { balanceAfter } from './events.js';
export type { Closing } from './legs.js';
export type { KindTotal } from './queries.js';

/**
 * Operations of this process on one account at a time (accountGate.ts). Of 4/8/16/32/64,
 * 32 gave the best hot/raw once event reads and writes were batched (`npm run bench:ledger`).
 */
export const PER_ACCOUNT_IN_FLIGHT = 32;

/**
 * The only code that changes a balance. Each operation follows the marker pattern:
 * 1. one atomic, filter-guarded update per affected balance that also pushes a marker
 *    `{ op, att }` (filter `pendingOps.op $ne opId`, so the same id cannot apply twice
 *    while it is in flight, and `fences.att $ne att`, so a decided attempt never applies);
 * 2. one immutable audit event per changed balance, `_id = opId:leg` (unique, so a
 *    second attempt of a finished id is detected and undone);
 * 3. only then the markers are removed (batched), and the field is unset when empty.
 * A request whose reply is lost is never guessed at: the leg is decided by a fence
 * (legs.ts). A crash anywhere leaves markers that `recoverLedger` finishes. See ECONOMY.md.
 */
/** How often `drainAndClose` empties an account that keeps receiving before it gives up. */
const DRAIN_ROUNDS = 10;

export class Ledger {
  /** What screens and reports read (queries.ts): tops, ranks, history, totals by kind. */
  readonly queries: LedgerQueries;
  readonly #books: Books;
  readonly #patience: Patience;
  readonly #sweeper: MarkerSweeper;
  readonly #gate = new AccountGate(PER_ACCOUNT_IN_FLIGHT);
  /** Batched reads of audit events (eventBatches.ts). */
  readonly #readEvents: (opId: string) => Promise<LedgerEventDoc[]>;
  readonly #legs: LegWriter;
  readonly #outcomes: Outcomes;
  readonly #abandoned: AbandonedAttempts;

  constructor(private readonly deps: LedgerDeps) {
    this.#books = createBooks(deps.cols);
    this.queries = new LedgerQueries({ cols: deps.cols, houseAccountId: deps.config.houseAccountId });
    this.#patience = new Patience(deps.config);
    this.#sweeper = new MarkerSweeper(deps.log);
    this.#readEvents = eventReader((ids) =>
      this.#patience.retry(() => deps.cols.ledgerEvents.find({ _id: { $in: ids } }).toArray()),
    );
    const context: AttemptContext = {
      deps,
      books: this.#books,
      patience: this.#patience,
      sweeper: this.#sweeper,
      recorded: (spec) => this.#recorded(spec),
      writeEvents: eventWriter((docs) =>
        this.#patience.io(() => deps.cols.ledgerEvents.insertMany(docs, { ordered: false })),
      ),
      step: (step, spec) => this.#step(step, spec),
    };
    this.#legs = new LegWriter(context);
    this.#outcomes = new Outcomes(context);
    this.#abandoned = new AbandonedAttempts(deps, this.#patience);
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
    const keepAtLeast =
      i.currency === 'cookies' && i.from === this.houseAccountId ? this.deps.config.houseMinReserve : 0;
    return this.#run(buildSpec('transfer', { ...i, keepAtLeast }));
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
    const found = new Map<string, number>();
    for (const part of inChunks(accounts)) {
      const docs = await book.collection
        .find({ _id: { $in: part } }, { projection: { [book.balanceField]: 1 } })
        .toArray();
      for (const doc of docs) found.set(doc._id, readBalance(book, doc));
    }
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
    return this.#patience.retry(() => closeAccount(this.#books[currency], account));
  }

  /**
   * Removes the documents of accounts that hold nothing and keep nothing of an operation (no
   * marker, no fence): only for the accounts of holds that ended a week ago, whose last late
   * write stopped arriving long before (requests give up in seconds, fences go after a day).
   * Their events stay; the checks take a missing account whose events explain nothing as
   * empty. Returns how many went.
   */
  async dropEmptyAccounts(currency: OperationSpec['currency'], accounts: readonly string[]): Promise<number> {
    if (accounts.length === 0) return 0;
    const book = this.#books[currency];
    const result = await book.collection.deleteMany({
      _id: { $in: [...accounts] },
      [book.balanceField]: 0,
      'pendingOps.0': { $exists: false },
      'fences.0': { $exists: false },
    } as Filter<BalanceDoc>);
    return result.deletedCount;
  }

  /**
   * Empties an account and closes it for good (a member forgotten on request): `empty` moves
   * the balance found away with an operation id of its own per round, and the account is
   * closed once it is found empty with nothing in flight. A credit that lands between the two
   * is found by the next round, so nothing can arrive once it is closed. Returns what was
   * moved. Markers of finished operations (their removal is batched) are waited for; an
   * account that still holds one after every round fails it, to be tried again.
   */
  async drainAndClose(
    currency: OperationSpec['currency'],
    account: string,
    empty: (balance: number, round: number) => Promise<unknown>,
  ): Promise<{ moved: number }> {
    let moved = 0;
    for (let round = 0; round < DRAIN_ROUNDS; round++) {
      const found = await this.closeAccount(currency, account);
      if (found.closed) return { moved };
      if (found.balance > 0) {
        try {
          await empty(found.balance, round);
          moved += found.balance;
        } catch (error) {
          // Spent meanwhile (it was not closed yet): the next round reads what is left.
          if (!isAppError(error, 'INSUFFICIENT_COOKIES') && !isAppError(error, 'INSUFFICIENT_PLACE_POINTS'))
            throw error;
        }
      }
      // This process's finished operations leave their markers for the sweeper: dropped now.
      await this.flush();
    }
    throw new Error(
      `${currency}/${account} kept receiving or an operation stayed in flight (${DRAIN_ROUNDS} rounds)`,
    );
  }

  /**
   * Takes what `account` holds, up to `amount` (a moderator's clawback): never more than the
   * balance, which leaves out whatever sits in a hold. The amount is decided once per id: a retry
   * finds the recorded debit and answers it; a spend landing between the read and the debit
   * makes it read again. Takes nothing (and records nothing) from an empty account.
   */
  async debitUpTo(input: DebitInput): Promise<{ taken: number; balance: number }> {
    for (let round = 0; round < DRAIN_ROUNDS; round++) {
      const recorded = recordedFrom(await this.#patience.retry(() => this.#readEvents(input.opId)));
      if (recorded) return this.#taken(input, recorded.outcome);
      const balance = await this.balanceOf(input.currency, input.account);
      if (balance === 0) return { taken: 0, balance: 0 };
      try {
        return this.#taken(input, await this.debit({ ...input, amount: Math.min(input.amount, balance) }));
      } catch (error) {
        // Spent meanwhile, or a concurrent attempt of this id decided another amount: read again.
        const again = ['INSUFFICIENT_COOKIES', 'INSUFFICIENT_PLACE_POINTS', 'OPERATION_ID_REUSED'] as const;
        if (!again.some((code) => isAppError(error, code))) throw error;
      }
    }
    throw new Error(
      `${input.currency}/${input.account}: ${input.opId} kept losing to spends (${DRAIN_ROUNDS} rounds)`,
    );
  }

  /** What `debitUpTo` took, and the balance right after it (read again for a retried debit). */
  async #taken(input: DebitInput, outcome: LedgerOutcome): Promise<{ taken: number; balance: number }> {
    const balance =
      balanceAfter(outcome, input.account) ?? (await this.balanceOf(input.currency, input.account));
    return { taken: outcome.amount, balance };
  }

  /** Waits until every finished operation's markers are removed (shutdown, tests). */
  async flush(): Promise<void> {
    await this.#sweeper.drain();
  }

  /**
   * Decides every attempt this process gave up on (OPERATION_IN_PROGRESS) while the
   * database could not be asked; the recovery loop calls it. Returns how many it decided.
   */
  decideAbandoned(): Promise<number> {
    return this.#abandoned.decideAll();
  }

  /**
   * Whether operation `opId` is recorded (its events written): done, as a caller that lost
   * track of it needs to know. An attempt still in flight is not (yet); recovery decides it
   * within the recovery grace.
   */
  async recorded(opId: string): Promise<boolean> {
    return (await this.#patience.retry(() => this.#readEvents(opId))).length > 0;
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
    await this.#abandoned.decide(spec.opId);
    for (let round = 0; round < 3; round++) {
      const attempt: Attempt = { spec, att: this.deps.rng.uuid(), startedAt: performance.now() };
      let result: LedgerOutcome | null;
      try {
        result =
          spec.type === 'transfer' ? await this.#runTransfer(attempt) : await this.#runSingleLeg(attempt);
      } catch (error) {
        if (isAppError(error, 'OPERATION_IN_PROGRESS')) this.#abandoned.add(attempt);
        throw error;
      }
      if (result) return result;
    }
    throw inProgress(spec);
  }

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
    const leg = await this.#legs.apply(a, side);
    if (leg.kind !== 'applied') return this.#outcomes.notApplied(a, leg, []);
    await this.#step(`${side}.applied`, a.spec);
    return this.#outcomes.finish(a, [leg.leg]);
  }

  async #runTransfer(a: Attempt): Promise<LedgerOutcome | null> {
    const debit = await this.#legs.apply(a, 'debit');
    if (debit.kind !== 'applied') return this.#outcomes.notApplied(a, debit, []);
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
      await this.#outcomes.compensate(a, applied);
      throw error instanceof AppError || !isDriverFailure(error) ? error : inProgress(a.spec);
    }
    if (recorded) return this.#outcomes.undoDuplicate(a, applied, recorded);

    const credit = await this.#legs.apply(a, 'credit');
    if (credit.kind !== 'applied') return this.#outcomes.notApplied(a, credit, applied);
    await this.#step('credit.applied', a.spec);
    return this.#outcomes.finish(a, [...applied, credit.leg]);
  }

  async #recorded(spec: OperationSpec): Promise<Recorded | null> {
    return recordedFrom(await this.#readEvents(spec.opId));
  }

  async #step(step: LedgerStep, spec: OperationSpec): Promise<void> {
    await this.deps.hooks?.step?.(step, spec);
  }
}
