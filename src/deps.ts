import type { Db } from 'mongodb';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Collections } from './db/collections.js';
import type { DatabaseHealth } from './db/databaseHealth.js';
import type { Logger } from './logger.js';
import type { Rng } from './rng.js';

/**
 * The money layer's services (`utils/money/`), which the kernel passes along in `deps` but never
 * calls: the ledger, the holds of money in play, and the two currencies' economies. The kernel
 * names the slots; each part of the money layer fills its own by declaration merging, so the
 * kernel imports nothing above it:
 *
 *   declare module '../../src/deps.js' {
 *     interface MoneyLayer { ledger: Ledger }
 *   }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, by the money layer
export interface MoneyLayer {}

/** Everything a command, service or tool needs, passed down as one `deps` object. */
export interface AppDeps extends Pick<MoneyLayer, 'ledger'> {
  config: Config;
  log: Logger;
  /** Business time: the economy, the games, the hunt (simulated in the console and the sim). */
  clock: Clock;
  /**
   * Real time, always: the windows of security and transport (a worker's timestamp and nonces,
   * web sign-in links, sessions and rate limits), which a simulated clock must not stretch or
   * freeze. The system clock everywhere but in tests.
   */
  wallClock: Clock;
  rng: Rng;
  /** For stores only (features' and infrastructure's); commands never see it. */
  db: Db;
  cols: Collections;
  /** Whether the database answers now (absent where nobody watches: tests of one part, tools). */
  health?: DatabaseHealth;
}
