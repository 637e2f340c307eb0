import { type Clock, ManualClock } from '../../src/clock.js';
import type { Collections } from '../../src/db/collections.js';
import { createLogger, silentLogger } from '../../src/logger.js';
import { cryptoRng } from '../../src/rng.js';
import { Ledger, type LedgerHooks, type LedgerOutcome } from '../../utils/ledger/ledger.js';
import type { CreditInput, DebitInput, TransferInput } from '../../utils/ledger/operationSpec.js';
import { DEFAULT_LEDGER_TIMEOUTS, type LedgerTimeouts } from '../../utils/ledger/patience.js';

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
