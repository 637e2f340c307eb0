import { hostname } from 'node:os';
import path from 'node:path';
import type { Db } from 'mongodb';
import { ASSEMBLY } from '../commands/index.js';
import { MIGRATIONS } from '../migrations/index.js';
import { backupFileName, takeBackup } from '../src/backup/backup.js';
import { type Clock, systemClock } from '../src/clock.js';
import type { Config } from '../src/config.js';
import { type Collections, collections, ensureIndexes } from '../src/db/collections.js';
import { type Database, openDatabase } from '../src/db/connect.js';
import { type MigrationReport, migrate, schemaOf } from '../src/db/migrations.js';
import type { AppDeps } from '../src/deps.js';
import type { Logger } from '../src/logger.js';
import { startPeriodic } from '../src/periodic.js';
import { cryptoRng, type Rng } from '../src/rng.js';
import type { RecoveryReport } from '../utils/money/ledger/recovery.js';
import {
  ensureMoneyIndexes,
  moneyCollections,
  openLedger,
  runLedgerRecovery,
} from '../utils/money/moneyLayer.js';

export type { AppDeps } from '../src/deps.js';
export { runLedgerRecovery } from '../utils/money/moneyLayer.js';

export interface App extends AppDeps {
  database: Database;
  /** Runs the recovery pass now, then every LEDGER_RECOVERY_INTERVAL_MS until `close`. */
  startLedgerRecovery(): Promise<RecoveryReport>;
  close(): Promise<void>;
}

/** Every collection in `deps.cols`: the kernel's and the ledger's. */
export function appCollections(db: Db): Collections {
  return { ...collections(db), ...moneyCollections(db) };
}

/** The kernel's and the ledger's indexes (each feature creates its own through the assembly). */
export async function ensureAppIndexes(db: Db): Promise<void> {
  await Promise.all([ensureIndexes(db), ensureMoneyIndexes(db)]);
}

/**
 * Opens the database (chosen as docs/architecture.md, "The database", describes), brings its
 * shapes up to date (migrations, with a backup first when one is pending), builds the ledger
 * and returns the deps.
 * `migrate: false` leaves the shapes as found (a restore migrates what it loaded).
 */
export async function openApp(
  config: Config,
  log: Logger,
  options: { clock?: Clock; rng?: Rng; persistent?: boolean; migrate?: boolean } = {},
): Promise<App> {
  const database = await openDatabase(config.mongo, { persistent: options.persistent ?? true }, log);
  try {
    if (options.migrate ?? true) await upgradeDatabase(database.db, config, log);
  } catch (error) {
    await database.close();
    throw error;
  }
  await ensureMoneyIndexes(database.db);
  const cols = appCollections(database.db);
  const clock = options.clock ?? systemClock;
  const rng = options.rng ?? cryptoRng;
  const ledger = openLedger({ cols, clock, rng, log, config });
  let stopRecovery = async () => {};
  const app: App = {
    config,
    log,
    clock,
    wallClock: systemClock,
    rng,
    db: database.db,
    cols,
    ledger,
    database,
    health: database.health,
    async startLedgerRecovery() {
      const report = await runLedgerRecovery(app);
      let tidied = app.wallClock.now().getTime();
      const loop = startPeriodic(
        'ledger.recovery',
        () => {
          // Emptied arrays are a crash's leftover: looking for them reads every account (`tidy`).
          const tidy = app.wallClock.now().getTime() - tidied >= TIDY_EVERY_MS;
          return runLedgerRecovery(app, config.ledger.recoveryGraceMs, { tidy }).then((done) => {
            if (tidy) tidied = app.wallClock.now().getTime();
            return done;
          });
        },
        { intervalMs: config.ledger.recoveryIntervalMs, log },
      );
      stopRecovery = () => loop.stop();
      return report;
    },
    async close() {
      await stopRecovery();
      await ledger.flush();
      await database.close();
    },
  };
  return app;
}

/**
 * Runs the pending migrations (docs/operating.md, "Upgrades"). Before the first step on a database
 * that holds documents, it takes a backup to roll back to, named for the step; a backup that fails
 * stops start-up before anything changed.
 */
export async function upgradeDatabase(db: Db, config: Config, log: Logger): Promise<MigrationReport> {
  const report = await migrate(
    { db, log, clock: systemClock, owner: `${hostname()}:${process.pid}` },
    MIGRATIONS,
    {
      beforeFirstStep: async (pending) => {
        const first = pending[0]?.id ?? 'next';
        const file = path.join(
          backupDirOf(config),
          `before-${first}-${backupFileName(db.databaseName, new Date())}`,
        );
        const taken = await takeBackup(db, file, schemaOf, systemClock, ASSEMBLY.transient);
        log.info(
          { event: 'db.migration.backup', file, bytes: taken.bytes, ms: taken.ms },
          `backup before migration ${first}: ${file}`,
        );
      },
    },
  );
  if (report.applied.length > 0) {
    log.info(
      { event: 'db.migrated', steps: report.applied },
      `migrations applied: ${report.applied.join(', ')}`,
    );
  }
  return report;
}

/** Where backups go: BACKUP_DIR, else DATA_DIR/backups. */
export function backupDirOf(config: Config): string {
  return config.backup.dir ?? path.join(config.mongo.dataDir, 'backups');
}

/** How often the periodic recovery pass also unsets emptied marker and fence arrays (`RecoveryOptions.tidy`). */
const TIDY_EVERY_MS = 3_600_000;
