import type { Collection, Document, UpdateFilter } from 'mongodb';
import type { Collections } from '../../../src/db/collections.js';
import type { Currency, Fence, OperationSpec, PendingOp } from './documents.js';

/** The part of a balance document the ledger touches, whatever the currency. */
export interface BalanceDoc {
  _id: string;
  pendingOps?: PendingOp[];
  fences?: Fence[];
  /** Set once on a hold's account that was decided empty for good: no credit may land on it. */
  closed?: boolean;
  /** How many legs have applied to this account: each apply adds one in the same update (`sequence` on events). */
  changes?: number;
}

/** The field that counts an account's changes; every apply increments it atomically with the balance. */
export const CHANGES_FIELD = 'changes';

/**
 * The field that counts an account's legs undone (a compensation, a recovery's rollback): an
 * undone leg counted a change and left no event. Not subtracted from `changes`, which numbers
 * the account's events.
 */
export const UNDONE_FIELD = 'undone';

/**
 * The largest balance any account may hold, in the currency's unit (whole Cookies, Place
 * milli-points): 10^12, so that balances, and sums of up to about 9,000 balances at the
 * limit, stay exact JavaScript integers (2^53 - 1 is about 9 * 10^15). A credit that would
 * pass it is refused with BALANCE_LIMIT by its apply filter, so the limit holds under
 * concurrency; no single amount may exceed it either.
 */
export const MAX_BALANCE = 1_000_000_000_000;

/**
 * The books address fields by name at run time (`cookies`, `balance`, ...), which the
 * driver's static update types cannot follow; this is the one place that says so.
 */
export function asUpdate(update: Document): UpdateFilter<BalanceDoc> {
  return update as UpdateFilter<BalanceDoc>;
}

/**
 * How one currency is stored: its collection, its balance field and what a debit or
 * credit changes besides the balance (Place wallets also count earned, spent, placements).
 */
export interface Book {
  currency: Currency;
  collection: Collection<BalanceDoc>;
  balanceField: string;
  maxBalance: number;
  debitInc(spec: OperationSpec): Record<string, number>;
  creditInc(spec: OperationSpec): Record<string, number>;
  /** Fields a credit's upsert sets besides those it increments. */
  creditSetOnInsert: Record<string, number>;
  /** Every counter of an empty account (a fence may create the document before any credit). */
  empty: Record<string, number>;
}

export type Books = Record<Currency, Book>;

export function createBooks(cols: Collections): Books {
  return {
    cookies: {
      currency: 'cookies',
      collection: cols.cookies as unknown as Collection<BalanceDoc>,
      balanceField: 'cookies',
      maxBalance: MAX_BALANCE,
      debitInc: (spec) => ({ cookies: -spec.amount }),
      creditInc: (spec) => ({ cookies: spec.amount }),
      creditSetOnInsert: {},
      empty: { cookies: 0 },
    },
    place: {
      currency: 'place',
      collection: cols.placeWallets as unknown as Collection<BalanceDoc>,
      balanceField: 'balance',
      maxBalance: MAX_BALANCE,
      debitInc: (spec) => ({ balance: -spec.amount, spent: spec.amount, placements: spec.placements }),
      creditInc: (spec) => ({ balance: spec.amount, earned: spec.amount }),
      creditSetOnInsert: { spent: 0, placements: 0 },
      empty: { balance: 0, earned: 0, spent: 0, placements: 0 },
    },
  };
}

export function negate(inc: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(inc).map(([field, value]) => [field, -value]));
}

export function readBalance(book: Book, doc: BalanceDoc | null): number {
  const value = (doc as Record<string, unknown> | null)?.[book.balanceField];
  return typeof value === 'number' ? value : 0;
}

/** The account's count of changes in a document an apply returned (0 on one written before the count existed). */
export function readChanges(doc: BalanceDoc | null): number {
  return typeof doc?.changes === 'number' ? doc.changes : 0;
}

/** Accounts under this prefix hold Cookies for a round or heist in play (utils/money/cookieEconomy.ts). */
export const POT_PREFIX = 'pot:';
/** Accounts under this prefix hold the value of one hold while it is reserved (utils/money/holds/). */
export const HOLD_PREFIX = 'hold:';
