import { type Clock, ManualClock } from '../../src/clock.js';
import type { Collections } from '../../src/db/collections.js';
import { createLogger, silentLogger } from '../../src/logger.js';
import { cryptoRng } from '../../src/rng.js';
import type { LedgerEventDoc } from '../../utils/money/ledger/documents.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import { Ledger, type LedgerHooks, type LedgerOutcome } from '../../utils/money/ledger/ledger.js';
import type { CreditInput, DebitInput, TransferInput } from '../../utils/money/ledger/operationSpec.js';
import { DEFAULT_LEDGER_TIMEOUTS, type LedgerTimeouts } from '../../utils/money/ledger/patience.js';

export const HOUSE = 'house';

/** The give most ledger tests make: 30 Cookies from ann to ben. */
export const GIVE = {
  opId: 'give-1',
  currency: 'cookies',
  from: 'ann',
  to: 'ben',
  amount: 30,
  kind: 'give',
} as const;

export function makeLedger(
  cols: Collections,
  options: {
    hooks?: LedgerHooks;
    houseMinReserve?: number;
    clock?: Clock;
    timeouts?: Partial<LedgerTimeouts>;
  } = {},
): Ledger {
  return new Ledger({
    cols,
    clock: options.clock ?? new ManualClock(new Date('2026-01-01T00:00:00Z')),
    rng: cryptoRng,
    log: process.env.LEDGER_DEBUG_LOG ? createLogger('warn') : silentLogger,
    config: {
      houseAccountId: HOUSE,
      houseMinReserve: options.houseMinReserve ?? 0,
      ...DEFAULT_LEDGER_TIMEOUTS,
      ...options.timeouts,
    },
    hooks: options.hooks,
  });
}

export { runPool } from '../../src/concurrency.js';

/**
 * Newest first: where each entry's balance after, minus its change, is not the balance after
 * the entry below it (`/cookies history` must add up). Entries without a balance are skipped.
 */
export function chainBreaks(entries: readonly LedgerEventDoc[]): string[] {
  const breaks: string[] = [];
  for (let i = 0; i + 1 < entries.length; i++) {
    const [newer, older] = [entries[i] as LedgerEventDoc, entries[i + 1] as LedgerEventDoc];
    if (newer.balanceAfter === null || older.balanceAfter === null) continue;
    if (newer.balanceAfter - newer.delta !== older.balanceAfter)
      breaks.push(
        `${older.opId} → ${older.balanceAfter}, then ${newer.opId} ${newer.delta} → ${newer.balanceAfter}`,
      );
  }
  return breaks;
}

/** An account's events as stored, in its own order of changes, newest first (no display chaining). */
export function storedBySequence(cols: Collections, account: string): Promise<LedgerEventDoc[]> {
  return cols.ledgerEvents
    .find({ account, sequence: { $ne: null } })
    .sort({ sequence: -1 })
    .toArray();
}

let seeds = 0;

/** Gives an account its starting balance (a mint with a fresh operation id). */
export function seedBalance(
  ledger: Ledger,
  account: string,
  amount: number,
  currency: 'cookies' | 'place' = 'cookies',
): Promise<LedgerOutcome> {
  seeds += 1;
  return ledger.credit({ opId: `seed-${seeds}-${account}`, currency, account, amount, kind: 'test.mint' });
}

/** A ledger call described as data (crash plans cross a process boundary as JSON). */
export type LedgerCall =
  | { op: 'debit'; input: DebitInput }
  | { op: 'credit'; input: CreditInput }
  | { op: 'transfer'; input: TransferInput };

export function callLedger(ledger: Ledger, call: LedgerCall): Promise<LedgerOutcome> {
  switch (call.op) {
    case 'debit':
      return ledger.debit(call.input);
    case 'credit':
      return ledger.credit(call.input);
    case 'transfer':
      return ledger.transfer(call.input);
  }
}

/** How long the books may take to drop the markers of operations that already answered. */
const MARKERS_SETTLE_MS = 10_000;

/**
 * The books' problems as `checkInvariants` finds them, once the markers of operations that
 * already answered are gone: each process removes its finished operations' markers in a batch
 * just after the answer, so a check run at once may still see another process's. A marker that
 * stays past the deadline (an operation left half done) is reported like any other problem.
 */
export async function booksProblems(cols: Collections): Promise<string[]> {
  const deadline = Date.now() + MARKERS_SETTLE_MS;
  for (;;) {
    const { problems } = await checkInvariants(cols);
    const onlyMarkers = problems.length > 0 && problems.every((p) => p.includes('marker(s) left'));
    if (!onlyMarkers || Date.now() > deadline) return problems;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
