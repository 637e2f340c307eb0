import type { Clock } from '../../../src/clock.js';
import type { Collections } from '../../../src/db/collections.js';
import type { Logger } from '../../../src/logger.js';
import type { Rng } from '../../../src/rng.js';
import type { Book, Books } from './books.js';
import type { LedgerEventDoc, LegSide, OperationSpec, PendingOp } from './documents.js';
import type { Recorded } from './events.js';
import type { MarkerSweeper } from './markerSweeper.js';
import type { LedgerTimeouts, Patience } from './patience.js';

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

/** One try at an operation: a fresh attempt id, and when it started (for its deadline). */
export interface Attempt {
  spec: OperationSpec;
  att: string;
  startedAt: number;
}

/** A debit waiting to be applied together with others on the same document. */
export interface GroupedDebit {
  book: Book;
  account: string;
  spec: OperationSpec;
  marker: PendingOp;
}

export interface AppliedLeg {
  book: Book;
  account: string;
  side: LegSide;
  /** Null when the reply was lost and the leg was found applied by settling it. */
  balanceAfter: number | null;
  /** The account's count of changes right after this leg; null when balanceAfter is. */
  sequence: number | null;
}

/** What became of one leg; every kind but `applied` means this attempt's leg is not applied. */
export type LegResult =
  | { kind: 'applied'; leg: AppliedLeg }
  /** Another attempt already recorded the operation. */
  | { kind: 'recorded'; recorded: Recorded }
  /** Another attempt of the same id holds a marker on the account. */
  | { kind: 'busy' }
  /** The outcome was unknown and is now decided: not applied, and it never can be. */
  | { kind: 'fenced' }
  /** A definitive refusal (short balance, balance limit, reused id, no answer before any write). */
  | { kind: 'refused'; error: Error };

/**
 * What the parts of one operation share (ledger.ts runs it, legWriter.ts applies its legs,
 * outcomes.ts ends it): the dependencies, the books, how requests are sent, the sweeper of
 * finished markers, the batched event reads and writes, and the fault-injection hook.
 */
export interface AttemptContext {
  deps: LedgerDeps;
  books: Books;
  patience: Patience;
  sweeper: MarkerSweeper;
  /** The recorded outcome of the operation's id, if any (batched read of its events). */
  recorded(spec: OperationSpec): Promise<Recorded | null>;
  writeEvents(events: LedgerEventDoc[]): Promise<void>;
  step(step: LedgerStep, spec: OperationSpec): Promise<void>;
}
