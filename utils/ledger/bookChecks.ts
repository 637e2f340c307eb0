import type { Collections } from '../../src/db/collections.js';
import { inChunks } from '../../src/db/inChunks.js';
import { type Book, CHANGES_FIELD, createBooks, UNDONE_FIELD } from './books.js';
import type { Currency } from './documents.js';

/** What the events say an account holds (`balance`) and, for Place wallets, its counters. */
export interface Recomputed {
  balance: number;
  earned: number;
  spent: number;
  placements: number;
}

export interface CurrencyTotals {
  /** Sum of all stored balances. */
  balances: number;
  /** Value created by credits without a source (rewards, grants). */
  minted: number;
  /** Value destroyed by debits without a destination (purchases, fees). */
  burned: number;
  accounts: number;
}

/** What reading the books counted besides the differences. */
export interface BookCounts {
  fences: number;
  /** Every account's count of changes (`changes`) less its legs undone (`undone`), added up: one per event. */
  changes: number;
}

type StoredBalance = Record<string, unknown> & { _id: string; pendingOps?: unknown[]; fences?: unknown[] };

const NOTHING: Recomputed = { balance: 0, earned: 0, spent: 0, placements: 0 };

/** The stored fields of a book (its balance and, for Place wallets, the counters) with what the events say of each. */
function expectedFields(book: Book, r: Recomputed): [string, number][] {
  return Object.keys(book.empty).map((field) => [
    field,
    field === book.balanceField ? r.balance : r[field as keyof Recomputed],
  ]);
}

/** Whether the events leave the account anything to store (a Place wallet that spent all it earned still counts both). */
function explainsSomething(book: Book, r: Recomputed): boolean {
  return expectedFields(book, r).some(([, value]) => value !== 0);
}

/** Every difference between one stored account and what its events explain. */
function compareAccount(book: Book, doc: StoredBalance, expected: Recomputed, problems: string[]): void {
  const key = `${book.currency}/${doc._id}`;
  const stored = numberField(doc, book.balanceField);
  if (!Number.isSafeInteger(stored)) problems.push(`${key}: balance ${stored} is not a whole number`);
  if (stored < 0) problems.push(`${key}: negative balance ${stored}`);
  for (const [field, value] of expectedFields(book, expected)) {
    const found = numberField(doc, field);
    if (found === value) continue;
    problems.push(
      field === book.balanceField
        ? `${key}: stored balance ${found}, events explain ${value}`
        : `${key}: stored ${field} ${found}, events explain ${value}`,
    );
  }
  if (doc.pendingOps !== undefined) {
    const left = Array.isArray(doc.pendingOps) ? doc.pendingOps.length : 0;
    problems.push(`${key}: ${left} operation marker(s) left (pendingOps present)`);
  }
}

/** Compares every balance document with the events; adds up the balances. */
export async function checkBooks(
  cols: Collections,
  recomputed: Map<string, Recomputed>,
  totals: Record<Currency, CurrencyTotals>,
  problems: string[],
): Promise<BookCounts> {
  const counts = { fences: 0, changes: 0 };
  for (const book of Object.values(createBooks(cols))) {
    const seen = new Set<string>();
    for await (const raw of book.collection.find({})) {
      const doc = raw as unknown as StoredBalance;
      counts.fences += doc.fences?.length ?? 0;
      counts.changes += numberField(doc, CHANGES_FIELD) - numberField(doc, UNDONE_FIELD);
      const key = `${book.currency}/${doc._id}`;
      seen.add(key);
      totals[book.currency].balances += numberField(doc, book.balanceField);
      totals[book.currency].accounts++;
      compareAccount(book, doc, recomputed.get(key) ?? NOTHING, problems);
    }
    for (const [key, r] of recomputed) {
      if (key.startsWith(`${book.currency}/`) && !seen.has(key) && explainsSomething(book, r)) {
        problems.push(`${key}: events explain ${r.balance} but no balance document exists`);
      }
    }
  }
  return counts;
}

/**
 * The same check at the cost of a day, not of every account the bot ever had (each hold has
 * one, so they grow with history): the accounts `touched` by the events read since the last
 * check are compared one by one, and every other document only through its book's sums, added
 * up by the database — each stored field's total against the events', the negative balances, the
 * markers left, and the changes counted (which the caller holds against the events read). A
 * document changed behind the ledger's back changes a total, and a transfer recorded too late
 * for the events read (which leaves every total as it was) changes the count; finding which
 * account is left to the full check that `InvariantCheckpoint.check` runs on any difference.
 * A change that keeps every total and count (two untouched balances exchanged by hand) is found
 * by a full check only: the simulation ends with one, and `npm run check:invariants` is one.
 */
export async function checkTouchedBooks(
  cols: Collections,
  recomputed: Map<string, Recomputed>,
  touched: ReadonlySet<string>,
  totals: Record<Currency, CurrencyTotals>,
  problems: string[],
): Promise<BookCounts> {
  const counts = { fences: 0, changes: 0 };
  for (const book of Object.values(createBooks(cols))) {
    const prefix = `${book.currency}/`;
    const ids = [...touched].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
    const seen = new Set<string>();
    for (const part of inChunks(ids)) {
      for await (const raw of book.collection.find({ _id: { $in: part } })) {
        const doc = raw as unknown as StoredBalance;
        seen.add(doc._id);
        compareAccount(book, doc, recomputed.get(`${prefix}${doc._id}`) ?? NOTHING, problems);
      }
    }
    for (const id of ids) {
      const r = recomputed.get(`${prefix}${id}`) ?? NOTHING;
      if (!seen.has(id) && explainsSomething(book, r)) {
        problems.push(`${prefix}${id}: events explain ${r.balance} but no balance document exists`);
      }
    }
    const sums = await bookSums(book);
    totals[book.currency].balances += sums[book.balanceField] ?? 0;
    totals[book.currency].accounts += sums.accounts ?? 0;
    counts.fences += sums.fences ?? 0;
    counts.changes += (sums[CHANGES_FIELD] ?? 0) - (sums[UNDONE_FIELD] ?? 0);
    const explained = new Map<string, number>();
    for (const [key, r] of recomputed) {
      if (!key.startsWith(prefix)) continue;
      for (const [field, value] of expectedFields(book, r))
        explained.set(field, (explained.get(field) ?? 0) + value);
    }
    for (const [field, value] of explained) {
      const stored = sums[field] ?? 0;
      if (stored !== value)
        problems.push(`${book.currency}: stored ${field} totals ${stored}, events explain ${value}`);
    }
    if (sums.negative) problems.push(`${book.currency}: ${sums.negative} account(s) with a negative balance`);
    if (sums.pending)
      problems.push(`${book.currency}: ${sums.pending} account(s) with operation markers left`);
  }
  return counts;
}

/** One book's totals over every document, added up by the database: no document crosses the wire. */
async function bookSums(book: Book): Promise<Record<string, number>> {
  const balance = `$${book.balanceField}`;
  const [sums] = await book.collection
    .aggregate<Record<string, number>>([
      {
        $group: {
          _id: null,
          accounts: { $sum: 1 },
          ...Object.fromEntries(Object.keys(book.empty).map((field) => [field, { $sum: `$${field}` }])),
          [CHANGES_FIELD]: { $sum: `$${CHANGES_FIELD}` },
          [UNDONE_FIELD]: { $sum: `$${UNDONE_FIELD}` },
          fences: { $sum: { $size: { $ifNull: ['$fences', []] } } },
          pending: { $sum: { $cond: [{ $isArray: '$pendingOps' }, 1, 0] } },
          // A missing balance is 0, not below it (null sorts before numbers).
          negative: { $sum: { $cond: [{ $lt: [{ $ifNull: [balance, 0] }, 0] }, 1, 0] } },
        },
      },
    ])
    .toArray();
  return sums ?? {};
}

function numberField(doc: Record<string, unknown>, field: string): number {
  const value = doc[field];
  return typeof value === 'number' ? value : 0;
}
