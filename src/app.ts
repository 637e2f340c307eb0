import { Ledger } from '../utils/ledger/ledger.js';
import { type RecoveryReport, recoverLedger } from '../utils/ledger/recovery.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { type Collections, collections } from './db/collections.js';
import { type Database, openDatabase } from './db/connect.js';
import type { Logger } from './logger.js';
import { cryptoRng, type Rng } from './rng.js';

/** Everything a command, service or tool needs, passed down as one `deps` object. */
export interface AppDeps {
  config: Config;
  log: Logger;
  clock: Clock;
  rng: Rng;
  cols: Collections;
  ledger: Ledger;
}

export interface App extends AppDeps {
  database: Database;
  close(): Promise<void>;
}

/** Opens the database (chosen as README describes), builds the ledger and returns the deps. */
export async function openApp(
  config: Config,
  log: Logger,
  options: { clock?: Clock; rng?: Rng; persistent?: boolean } = {},
): Promise<App> {
  const database = await openDatabase(config.mongo, { persistent: options.persistent ?? true }, log);
  const cols = collections(database.db);
  const clock = options.clock ?? systemClock;
  const rng = options.rng ?? cryptoRng;
  const ledger = new Ledger({ cols, clock, rng, log, config: config.ledger });
  return {
    config,
    log,
    clock,
    rng,
    cols,
    ledger,
    database,
    async close() {
      await ledger.flush();
      await database.close();
    },
  };
}

/** The recovery pass run at start-up and by `npm run ledger:recover`. */
export async function runLedgerRecovery(
  deps: AppDeps,
  graceMs = deps.config.ledger.recoveryGraceMs,
): Promise<RecoveryReport> {
  const report = await recoverLedger({ cols: deps.cols, clock: deps.clock, log: deps.log }, { graceMs });
  const level = report.stuck.length > 0 ? 'error' : 'info';
  deps.log[level]({ event: 'ledger.recovery.report', ...report }, 'ledger recovery pass finished');
  return report;
}
