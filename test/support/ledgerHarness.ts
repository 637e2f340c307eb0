import { ManualClock } from '../../src/clock.js';
import type { Collections } from '../../src/db/collections.js';
import { silentLogger } from '../../src/logger.js';
import { cryptoRng } from '../../src/rng.js';
import { Ledger, type LedgerHooks } from '../../utils/ledger/ledger.js';

export const HOUSE = 'house';

export function makeLedger(
  cols: Collections,
  options: { hooks?: LedgerHooks; houseMinReserve?: number; clock?: ManualClock } = {},
): Ledger {
  return new Ledger({
    cols,
    clock: options.clock ?? new ManualClock(new Date('2026-01-01T00:00:00Z')),
    rng: cryptoRng,
    log: silentLogger,
    config: { houseAccountId: HOUSE, houseMinReserve: options.houseMinReserve ?? 0 },
    hooks: options.hooks,
  });
}

export { runPool } from '../../src/concurrency.js';
