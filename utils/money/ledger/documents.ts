import type { Collection, Db } from 'mongodb';
import { JOURNALED } from '../../../src/db/collections.js';

declare module '../../../src/db/collections.js' {
  interface Collections extends LedgerCollections {}
}

/** The ledger's collections, named once: its two books, its audit events, its stuck operations. */
export const LEDGER_COLLECTION_NAMES = {
  cookies: 'items_cookies',
  placeWallets: 'place_wallets',
  ledgerEvents: 'ledger_events',
  ledgerStuckOps: 'ledger_stuck_ops',
} as const;

export type Currency = 'cookies' | 'place';
export type LegSide = 'debit' | 'credit';
export type OperationType = 'debit' | 'credit' | 'transfer';

/** What a value-moving call asked for; stored on markers so recovery can finish it alone. */
export interface OperationSpec {
  opId: string;
  type: OperationType;
  currency: Currency;
  /** Account debited (debit, transfer). */
  from: string | null;
  /** Account credited (credit, transfer). */
  to: string | null;
  amount: number;
  kind: string;
  reason: string;
  /** Identity that caused the change (a user, a worker, an admin, the system). */
  source: string;
  /** Pixels paid for by a Place debit; counted on the wallet. */
  placements: number;
  /** What the debited account must keep after it (the house vault's minimum; 0 for any other). */
  keepAtLeast: number;
}

/** Marker of an operation in flight on a balance document (the marker pattern). */
export interface PendingOp {
  op: string;
  att: string;
  leg: LegSide;
  at: Date;
  /**
   * The OperationSpec as JSON (`encodeSpec`). Never queried inside, so it is one opaque
   * value: a document holding hundreds of markers (one member paying 500 times at once) is
   * matched and rewritten about three times faster than with a subdocument (ECONOMY.md).
   * Markers written before this change held the object itself; migration 002 rewrote them.
   */
  spec: string;
}

/**
 * A leg that can never apply: the attempt `att` of operation `op` was decided "not applied"
 * on this document, and every apply filter excludes its own attempt's fence. Pruned by the
 * recovery pass after `LEDGER_FENCE_RETENTION_MS`.
 */
export interface Fence {
  op: string;
  att: string;
  at: Date;
}

export interface CookieAccountDoc {
  _id: string;
  cookies: number;
  pendingOps?: PendingOp[];
  fences?: Fence[];
}

export interface PlaceWalletDoc {
  _id: string;
  balance: number;
  earned: number;
  spent: number;
  placements: number;
  pendingOps?: PendingOp[];
  fences?: Fence[];
}

/** One immutable audit event per balance change (one per leg of an operation). */
export interface LedgerEventDoc {
  _id: string;
  opId: string;
  attempt: string;
  fingerprint: string;
  type: OperationType;
  leg: LegSide;
  currency: Currency;
  kind: string;
  account: string;
  counterparty: string | null;
  delta: number;
  amount: number;
  placements: number;
  /** Balance of `account` right after this change; null when recovery finished the change later. */
  balanceAfter: number | null;
  /**
   * The account's own count of changes right after this one (1 for its first): the order of
   * an account's history, which timestamps cannot give when several changes share one.
   * Null (or absent, on events written before it existed) when the change's reply was lost.
   */
  sequence?: number | null;
  source: string;
  beneficiary: string;
  reason: string;
  at: Date;
  recovered: boolean;
}

export interface StuckOpDoc {
  _id: string;
  opId: string;
  attempt: string;
  spec: OperationSpec;
  problem: string;
  at: Date;
  resolvedAt: Date | null;
  resolution: string | null;
}

export interface LedgerCollections {
  cookies: Collection<CookieAccountDoc>;
  placeWallets: Collection<PlaceWalletDoc>;
  ledgerEvents: Collection<LedgerEventDoc>;
  ledgerStuckOps: Collection<StuckOpDoc>;
}

/** The ledger's collections; money writes wait for the journal. */
export function ledgerCollections(db: Db): LedgerCollections {
  const journaled = { writeConcern: JOURNALED };
  return {
    cookies: db.collection<CookieAccountDoc>(LEDGER_COLLECTION_NAMES.cookies, journaled),
    placeWallets: db.collection<PlaceWalletDoc>(LEDGER_COLLECTION_NAMES.placeWallets, journaled),
    ledgerEvents: db.collection<LedgerEventDoc>(LEDGER_COLLECTION_NAMES.ledgerEvents, journaled),
    ledgerStuckOps: db.collection<StuckOpDoc>(LEDGER_COLLECTION_NAMES.ledgerStuckOps, journaled),
  };
}

/** Creates the ledger's indexes; safe to run at every start-up (createIndex is idempotent). */
export async function ensureLedgerIndexes(db: Db): Promise<void> {
  const c = ledgerCollections(db);
  await Promise.all([
    c.ledgerEvents.createIndex({ opId: 1 }, { name: 'by_op' }),
    // A day's flows (/admin economy, the bakery's share) and a checkpointed invariant check.
    c.ledgerEvents.createIndex({ at: 1 }, { name: 'by_time' }),
    c.ledgerEvents.createIndex({ currency: 1, account: 1, at: -1 }, { name: 'by_account' }),
    c.ledgerEvents.createIndex({ currency: 1, account: 1, sequence: -1 }, { name: 'by_account_sequence' }),
    c.ledgerStuckOps.createIndex({ resolvedAt: 1 }, { name: 'open_first' }),
    c.cookies.createIndex({ 'pendingOps.op': 1 }, { name: 'pending_ops', sparse: true }),
    c.placeWallets.createIndex({ 'pendingOps.op': 1 }, { name: 'pending_ops', sparse: true }),
    // The recovery pass looks for markers and old fences every interval: only documents that hold some.
    c.cookies.createIndex({ 'fences.at': 1 }, { name: 'fences', sparse: true }),
    c.placeWallets.createIndex({ 'fences.at': 1 }, { name: 'fences', sparse: true }),
    // Tops, ranks and the members' supply ask for balances above a value: the accounts that
    // hold something, not the empty account every settled hold leaves behind.
    c.cookies.createIndex({ cookies: 1 }, { name: 'by_balance' }),
    c.placeWallets.createIndex({ balance: 1 }, { name: 'by_balance' }),
  ]);
}
