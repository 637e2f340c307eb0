import type { Collection, Document, UpdateFilter } from 'mongodb';
import type { Collections, Currency, OperationSpec, PendingOp } from '../../src/db/collections.js';
import type { ErrorCode } from '../errors.js';

/** The part of a balance document the ledger touches, whatever the currency. */
export interface BalanceDoc {
  _id: string;
  pendingOps?: PendingOp[];
}

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
  insufficientCode: ErrorCode;
  debitInc(spec: OperationSpec): Record<string, number>;
  creditInc(spec: OperationSpec): Record<string, number>;
  creditSetOnInsert: Record<string, number>;
}

export type Books = Record<Currency, Book>;

export function createBooks(cols: Collections): Books {
  return {
    cookies: {
      currency: 'cookies',
      collection: cols.cookies as unknown as Collection<BalanceDoc>,
      balanceField: 'cookies',
      insufficientCode: 'INSUFFICIENT_COOKIES',
      debitInc: (spec) => ({ cookies: -spec.amount }),
      creditInc: (spec) => ({ cookies: spec.amount }),
      creditSetOnInsert: {},
    },
    place: {
      currency: 'place',
      collection: cols.placeWallets as unknown as Collection<BalanceDoc>,
      balanceField: 'balance',
      insufficientCode: 'INSUFFICIENT_PLACE_POINTS',
      debitInc: (spec) => ({ balance: -spec.amount, spent: spec.amount, placements: spec.placements }),
      creditInc: (spec) => ({ balance: spec.amount, earned: spec.amount }),
      creditSetOnInsert: { spent: 0, placements: 0 },
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
