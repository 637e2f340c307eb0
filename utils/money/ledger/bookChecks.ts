import type { Collections } from '../../../src/db/collections.js';
import { inChunks } from '../../../src/db/inChunks.js';
import { type Book, createBooks } from './books.js';
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
export function explainsSomething(book: Book, r: Recomputed): boolean {
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
  const counts = { fences: 0 };
  for (const book of Object.values(createBooks(cols))) {
    const seen = new Set<string>();
    for await (const raw of book.collection.find({})) {
      const doc = raw as unknown as StoredBalance;
      counts.fences += doc.fences?.length ?? 0;
      const key = `${book.currency}/${doc._id}`;
      // Only the accounts the events explain are looked for below: a year's empty holds are not kept.
      if (recomputed.has(key)) seen.add(key);
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
 * check are compared one by one, and the books are asked, through their sparse indexes, for
 * the accounts holding operation markers (a leg applied whose event is not recorded yet) and
 * for their fences. Every other account is taken to hold what its events explain (the
 * caller adds up `balances` from them). What only a full check finds: a document changed behind the ledger's back that no event
 * touched since (MongoDB writes by hand), and an emptied marker list (`pendingOps: []`, a
 * crash between a marker's removal and its unset, which no index finds and recovery's hourly
 * tidy removes). An event recorded too late for the events read
 * is found by `InvariantCheckpoint`'s count of events. The simulation ends with a full check,
 * and `npm run check:invariants` is one.
 */
export async function checkTouchedBooks(
  cols: Collections,
  recomputed: Map<string, Recomputed>,
  touched: ReadonlySet<string>,
  totals: Record<Currency, CurrencyTotals>,
  problems: string[],
): Promise<BookCounts> {
  const counts = { fences: 0 };
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
    const marked = book.collection.find({ 'pendingOps.op': { $exists: true } }, { projection: { _id: 1 } });
    for await (const doc of marked) {
      if (!seen.has(doc._id))
        problems.push(`${prefix}${doc._id}: operation marker(s) left (pendingOps present)`);
    }
    const fenced = book.collection.find({ 'fences.at': { $exists: true } }, { projection: { fences: 1 } });
    for await (const doc of fenced) counts.fences += doc.fences?.length ?? 0;
    totals[book.currency].accounts += await book.collection.estimatedDocumentCount();
  }
  return counts;
}

function numberField(doc: Record<string, unknown>, field: string): number {
  const value = doc[field];
  return typeof value === 'number' ? value : 0;
}
